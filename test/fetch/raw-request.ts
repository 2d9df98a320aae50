// The fetch transport's raw request and response (`request.raw`, `reply.raw`) as plugins use them:
// one list of cases, run through `app.fetch` on Node (./raw-request.test.ts) and on Bun and Deno
// both through `app.fetch` and over a socket to their native servers (../runtimes/runner.ts).
// The raw request is a Node Readable whose stream state is made only when something uses it as a
// stream; these cases pin that laziness (an own `_readableState`, the field every Readable method
// reads, appears only then) and that everything a plugin does with the stream still works.
import assert from 'node:assert/strict'
import { EventEmitter } from 'node:events'
import { Readable, Stream, Transform } from 'node:stream'

/** Sends one request to the application (through app.fetch, or over a socket to where it listens). */
export type Send = (app: any, path: string, init?: RequestInit) => Promise<Response>
export interface RawCase { name: string, run: (trellis: (opts?: object) => any, send: Send) => Promise<void> }

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))
const hasState = (raw: object): boolean => Object.prototype.hasOwnProperty.call(raw, '_readableState')

export const RAW_CASES: RawCase[] = [
  {
    name: 'a request nobody streams builds no stream state; request.raw is still a Readable, reply.raw a Stream',
    async run (trellis, send) {
      const app = trellis()
      const seen: unknown[] = []
      app.get('/', async (request: any, reply: any) => {
        const raw = request.raw
        seen.push(raw instanceof Readable, raw instanceof Stream, raw instanceof EventEmitter, reply.raw instanceof Stream, reply.raw instanceof EventEmitter)
        seen.push(raw.httpVersion, raw.httpVersionMajor, raw.destroyed, raw.readableEnded, raw.complete, JSON.stringify(raw.trailers), raw.rawTrailers.length)
        seen.push(hasState(raw))
        return { ok: true }
      })
      app.post('/json', async (request: any) => ({ state: hasState(request.raw), body: request.body }))
      try {
        assert.deepEqual(await (await send(app, '/')).json(), { ok: true })
        assert.deepEqual(seen, [true, true, true, true, true, '1.1', 1, false, false, false, '{}', 0, false])
        // a JSON body of declared length (as a client sends it) is taken whole: still no stream state
        const res = await send(app, '/json', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '7' }, body: '{"a":1}' })
        assert.deepEqual(await res.json(), { state: false, body: { a: 1 } })
      } finally { await app.close() }
    }
  },
  {
    name: 'reply.raw gets no error listener per response, and a write after the end throws nothing',
    async run (trellis, send) {
      const app = trellis()
      let listeners = -1
      let late: unknown = 'not called'
      app.get('/', (_request: any, reply: any) => {
        listeners = reply.raw.listenerCount('error')
        reply.send('ok')
        // the answer has ended: the write fails to its callback, no 'error' is thrown at anyone
        reply.raw.write('late', (err?: NodeJS.ErrnoException | null) => { late = err?.code })
      })
      try {
        const res = await send(app, '/')
        assert.equal(await res.text(), 'ok')
        await settle(30)
        assert.equal(listeners, 0)
        assert.equal(late, 'ERR_STREAM_WRITE_AFTER_END')
      } finally { await app.close() }
    }
  },
  {
    name: 'a plugin reading request.raw.headers and rawHeaders sees plain lower-cased headers',
    async run (trellis, send) {
      const app = trellis()
      let headers: any
      let raw: string[] = []
      app.addHook('onRequest', async (request: any) => {
        headers = request.raw.headers
        raw = request.raw.rawHeaders
      })
      app.get('/', async (request: any) => ({ a: request.headers['x-a'], state: hasState(request.raw) }))
      try {
        const res = await send(app, '/', { headers: { 'X-A': 'one', 'x-b': 'two' } })
        assert.deepEqual(await res.json(), { a: 'one', state: false })
        assert.equal(Object.getPrototypeOf(headers), Object.prototype)
        assert.equal(headers['x-a'], 'one')
        assert.equal(headers['x-b'], 'two')
        assert.equal(typeof headers.host, 'string')
        assert.ok(raw.includes('x-a') && raw[raw.indexOf('x-a') + 1] === 'one', `rawHeaders: ${JSON.stringify(raw)}`)
        assert.equal(raw.length % 2, 0)
      } finally { await app.close() }
    }
  },
  {
    name: 'a preParsing hook that pipes request.raw through a Transform gets the whole body',
    async run (trellis, send) {
      const app = trellis()
      app.addHook('preParsing', async (request: any, _reply: any, payload: any) => {
        const upper = new Transform({ transform (chunk, _enc, done) { done(null, chunk.toString().toUpperCase()) } })
        payload.pipe(upper)
        return upper
      })
      app.post('/', async (request: any) => ({ body: request.body, state: hasState(request.raw) }))
      try {
        const res = await send(app, '/', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'piped body' })
        assert.deepEqual(await res.json(), { body: 'PIPED BODY', state: true })
      } finally { await app.close() }
    }
  },
  {
    name: "a parser reading the stream with on('data') works; 'close' listened before it is kept and fires once",
    async run (trellis, send) {
      const app = trellis()
      let closes = 0
      let stateAtHook: boolean | undefined
      app.addHook('onRequest', async (request: any) => {
        request.raw.on('close', () => { closes++ })
        stateAtHook = hasState(request.raw)
      })
      app.addContentTypeParser('text/plain', (_request: any, payload: any, done: (err: Error | null, body?: unknown) => void) => {
        let text = ''
        payload.on('data', (chunk: Buffer) => { text += chunk.toString() })
        payload.on('end', () => { done(null, text) })
      })
      app.post('/', async (request: any) => ({ body: request.body, state: hasState(request.raw) }))
      try {
        const res = await send(app, '/', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(70_000) })
        assert.deepEqual(await res.json(), { body: 'x'.repeat(70_000), state: true })
        assert.equal(stateAtHook, false, "a 'close' listener alone builds no stream state")
        await settle(50)
        assert.equal(closes, 1)
      } finally { await app.close() }
    }
  },
  {
    name: 'a handler iterating request.raw (for await) reads the body',
    async run (trellis, send) {
      const app = trellis()
      app.addContentTypeParser('application/octet-stream', (_request: any, _payload: any, done: (err: Error | null, body?: unknown) => void) => { done(null) })
      app.post('/', async (request: any) => {
        const chunks: Buffer[] = []
        for await (const chunk of request.raw) chunks.push(chunk as Buffer)
        return { length: Buffer.concat(chunks).length, ended: request.raw.readableEnded }
      })
      try {
        const res = await send(app, '/', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: new Uint8Array(50_000) })
        assert.deepEqual(await res.json(), { length: 50_000, ended: true })
      } finally { await app.close() }
    }
  }
]
