/**
 * The body is read in later socket callbacks than the one that started the request, yet the
 * hooks after the content-type parser and the handler run in the request's async context (Fastify
 * 4.3 runs the parser's `done` in an AsyncResource made when parsing starts): an AsyncLocalStorage
 * store entered in an onRequest hook is what they see, for each of many concurrent requests whose
 * bodies arrive in pieces. The parser function itself is called, as in Fastify 4.3, from the
 * body's 'end' callback, whose context is the socket read's (checked against fastify 4.3.0 on
 * Node 20 and 24: with `als.run` it sees no store; with `enterWith` on Node 20 it sees the one
 * entered on the connection, on Node 24 none): what it sees is never another request's store.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { AsyncLocalStorage } from 'node:async_hooks'
import trellis from '../../src/index'
import { listen } from '../helpers'

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

interface Seen { parser: unknown, preValidation: unknown, handler: unknown, body: unknown }

function build (enter: 'run' | 'enterWith', parser: 'callback' | 'async' | 'default'): any {
  const als = new AsyncLocalStorage<string>()
  const app: any = trellis()
  app.addHook('onRequest', (req: any, _reply: any, done: () => void) => {
    const id = String(req.headers['x-id'])
    if (enter === 'run') als.run(id, done)
    else { als.enterWith(id); done() }
  })
  const seenInParser = new WeakMap<object, unknown>()
  if (parser === 'callback') {
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (req: any, body: string, done: (e: null, v: unknown) => void) => {
      seenInParser.set(req, als.getStore() ?? null)
      done(null, JSON.parse(body))
    })
  } else if (parser === 'async') {
    app.addContentTypeParser('application/json', { parseAs: 'string' }, async (req: any, body: string) => {
      await pause(1)
      seenInParser.set(req, als.getStore() ?? null)
      return JSON.parse(body)
    })
  }
  app.addHook('preValidation', (req: any, _reply: any, done: () => void) => {
    req.preValidationStore = als.getStore()
    done()
  })
  app.post('/ctx', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (req: any): Promise<Seen> => {
    await pause(1)
    return { parser: seenInParser.has(req) ? seenInParser.get(req) : 'not run', preValidation: req.preValidationStore, handler: als.getStore(), body: req.body.n }
  })
  return app
}

/** A POST whose body is written in two pieces with a pause between them (so it ends in a later socket read). */
function postInPieces (port: number, id: string, n: number): Promise<Seen> {
  const body = JSON.stringify({ n })
  const half = Math.floor(body.length / 2)
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/ctx', headers: { 'content-type': 'application/json', 'content-length': String(body.length), 'x-id': id } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => { text += c })
      res.on('end', () => {
        if (res.statusCode !== 200) { reject(new Error(`status ${res.statusCode}: ${text}`)); return }
        resolve(JSON.parse(text))
      })
    })
    req.on('error', reject)
    req.write(body.slice(0, half))
    setTimeout(() => req.end(body.slice(half)), 5 + (n % 3) * 3)
  })
}

for (const enter of ['run', 'enterWith'] as const) {
  for (const parser of ['callback', 'async', 'default'] as const) {
    test(`a store entered in onRequest (${enter}) is seen by the ${parser} parser, preValidation and the handler of concurrent requests over a socket`, async (t) => {
      const app = build(enter, parser)
      t.after(() => app.close())
      const { port } = await listen(app)
      const ids = Array.from({ length: 12 }, (_, i) => `req-${i}`)
      const seen = await Promise.all(ids.map((id, i) => postInPieces(port, id, i)))
      assert.deepEqual(seen.map(({ parser: _, ...rest }) => rest), ids.map((id, i) => ({ preValidation: id, handler: id, body: i })))
      if (parser === 'default') assert.ok(seen.every((s) => s.parser === 'not run'))
      else seen.forEach((s, i) => assert.ok(s.parser === null || s.parser === ids[i], `parser of ${ids[i]} saw ${String(s.parser)}`))
    })
  }
}

test('over inject, preValidation and the handler see the store entered in onRequest', async () => {
  const app = build('run', 'callback')
  const answers = await Promise.all(['a', 'b', 'c'].map((id, i) => app.inject({ method: 'POST', url: '/ctx', headers: { 'x-id': id }, payload: { n: i } })))
  assert.deepEqual(answers.map((r: any) => { const { parser: _, ...rest } = r.json(); return rest }), ['a', 'b', 'c'].map((id, i) => ({ preValidation: id, handler: id, body: i })))
  await app.close()
})

test('the parser\'s async resource is destroyed once its callback has run, success or error', async () => {
  const { createHook } = await import('node:async_hooks')
  const created = new Set<number>()
  const destroyed = new Set<number>()
  const hook = createHook({
    init (id, type) { if (type === 'content-type-parser:run') created.add(id) },
    destroy (id) { if (created.has(id)) destroyed.add(id) }
  }).enable()
  try {
    const app: any = trellis()
    app.addContentTypeParser('application/x-custom', { parseAs: 'string' }, (_req: any, body: string, done: (err: Error | null, body?: unknown) => void) => {
      setImmediate(() => { if (body === 'fail') done(new Error('parser failed')); else done(null, body) })
    })
    app.post('/', async (req: any) => req.body)
    const codes = await Promise.all(['a', 'b', 'fail'].map(async (payload) =>
      (await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'application/x-custom' }, payload })).statusCode))
    assert.deepEqual(codes, [200, 200, 500])
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(created.size, 3)
    assert.deepEqual(destroyed, created)
    await app.close()
  } finally {
    hook.disable()
  }
})
