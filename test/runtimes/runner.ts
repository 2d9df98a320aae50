// Run by Bun or Deno (not by node:test): ./bun-deno.test.ts starts `bun runner.ts` and
// `deno run -A runner.ts` and reads what this prints. It loads trellis' built dist/ (CommonJS, as a
// user's `require('trellis')` gets it) and serves with listen() on the runtime's own server
// (Bun.serve / Deno.serve) on a loopback port:
// - every case of the behaviour table (../fetch/behaviour-table.ts), both lines, over a real socket
//   (a node:http client) and through app.fetch with a Request made in-process; each answer passes
//   the case's checks and the two answers are the same;
// - the runtime's conventions: `Bun.serve({ fetch: app.fetch })` / `Deno.serve(app.fetch)` with
//   the handler taken off the application (bound), the listen results, app.server.address(),
//   graceful close with a request in flight, the log line saying which server serves and the
//   runtimeServer option choosing node:http;
// - ecosystem plugins over the socket: @fastify/compress, cors, cookie, multipart, helmet, and
//   @fastify/websocket, which needs app.server's 'upgrade' event: node:http serves it;
// - request.raw / reply.raw as plugins use them (../fetch/raw-request.ts), through app.fetch and
//   over a socket to the native server.
// Output: one line `RESULT <json>` per check ({ name, ok, error? }), then `DONE`.
import http from 'node:http'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { gunzipSync } from 'node:zlib'
import assert from 'node:assert/strict'
import { CASES, sendThroughFetch, type Answer, type BehaviourCase, type Line, type Sent } from '../fetch/behaviour-table'
import { RAW_CASES, type Send } from '../fetch/raw-request'

// started from the repository's root (./bun-deno.test.ts does): the file runs as ESM under Bun and Deno
const root = process.cwd()
const require = createRequire(join(root, 'package.json'))
const lines: Record<Line, (opts?: object) => any> = {
  4: require(join(root, 'dist', 'entry', 'index.cjs')),
  5: require(join(root, 'dist', 'entry', 'v5.cjs'))
}
const runtime = typeof (globalThis as any).Bun !== 'undefined' ? 'bun' : 'deno'
const SERVER = runtime === 'bun' ? 'Bun.serve' : 'Deno.serve'

function report (name: string, error?: unknown): void {
  const result = error === undefined ? { name, ok: true } : { name, ok: false, error: String((error as Error)?.stack ?? error).slice(0, 2000) }
  console.log('RESULT ' + JSON.stringify(result))
}

async function check (name: string, fn: () => Promise<void>): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  try {
    await Promise.race([fn(), new Promise((_resolve, reject) => { timer = setTimeout(() => reject(new Error('timed out after 10 s')), 10_000) })])
    report(name)
  } catch (err) {
    report(name, err)
  } finally {
    clearTimeout(timer)
  }
}

const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

function normalize (entries: Iterable<[string, string | string[] | number | undefined]>): Answer['headers'] {
  const headers: Answer['headers'] = {}
  for (const [name, value] of entries) {
    const key = name.toLowerCase()
    if (CONNECTION_HEADERS.has(key) || value === undefined) continue
    if (key === 'set-cookie') headers[key] = ([] as string[]).concat(value as string | string[])
    else headers[key] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  return headers
}

function viaSocket (port: number, sent: Sent): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: sent.method ?? 'GET', path: sent.url, headers: sent.headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: normalize(Object.entries(res.headers)), body: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(sent.body)
  })
}

async function viaFetch (app: any, sent: Sent): Promise<Answer> {
  const { status, entries, body } = await sendThroughFetch(app, sent)
  return { status, headers: normalize(entries), body }
}

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** A pino destination collecting the log lines. */
function logSink (): { stream: Writable, lines: any[] } {
  const out: any[] = []
  const stream = new Writable({ write (chunk, _enc, cb) { for (const l of String(chunk).split('\n')) if (l !== '') out.push(JSON.parse(l)); cb() } })
  return { stream, lines: out }
}

/**
 * Where the runtime's JavaScript engine, not trellis, makes an answer differ from Node's: the
 * message of JSON.parse's error (JavaScriptCore on Bun). The rest of the answer is checked.
 */
const ENGINE_MESSAGES: Record<string, RegExp> = {
  'malformed JSON is a 400': runtime === 'bun' ? /^JSON Parse error: / : /^(Unexpected end of JSON input|Unterminated string in JSON)/
}

function checkCase (c: BehaviourCase, answer: Answer, seen: unknown[], line: Line): void {
  const engine = ENGINE_MESSAGES[c.name]
  if (engine === undefined || runtime !== 'bun' || line !== 4) { c.check(answer, seen, line); return }
  const body = JSON.parse(answer.body)
  assert.match(body.message, engine)
  // the case's own checks, with Node's message in place of the engine's
  c.check({ ...answer, body: JSON.stringify({ ...body, message: 'Unexpected end of JSON input' }) }, seen, line)
}

async function behaviourTable (): Promise<void> {
  for (const line of [4, 5] as const) {
    for (const c of CASES) {
      if (c.lines !== undefined && !c.lines.includes(line)) continue
      await check(`table v${line}: ${c.name}`, async () => {
        const answers: Answer[] = []
        // over the runtime's own server, then through app.fetch in-process
        for (const way of ['socket', 'fetch']) {
          const app = lines[line]()
          const seen: unknown[] = []
          c.setup(app, seen, line)
          try {
            let answer: Answer
            if (way === 'socket') {
              await app.listen({ port: 0, host: '127.0.0.1' })
              answer = await viaSocket(app.server.address().port, c.request)
            } else answer = await viaFetch(app, c.request)
            await settle(10)
            checkCase(c, answer, seen, line)
            answers.push(answer)
          } finally {
            await app.close()
          }
        }
        const [socket, fetched] = answers
        // a streamed body's framing is the server's: Bun.serve sends a short stream that has ended
        // with content-length, a Response made in-process has none
        if (fetched.headers['content-length'] === undefined && socket.headers['content-length'] === String(Buffer.byteLength(socket.body))) delete socket.headers['content-length']
        assert.deepEqual(socket, fetched, 'the socket answers as app.fetch does')
      })
    }
  }
}

async function conventions (): Promise<void> {
  const trellis = lines[4]
  await check(`listen() serves with ${SERVER}, says so once, and close() stops it`, async () => {
    const sink = logSink()
    const app = trellis({ logger: { level: 'info', stream: sink.stream } })
    app.get('/', { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } }, async (req: any) => ({ hello: 'world', ip: req.ip, extra: 1 }))
    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    const port = app.server.address().port
    assert.equal(address, `http://127.0.0.1:${port}`)
    assert.deepEqual(app.server.address(), { address: '127.0.0.1', family: 'IPv4', port })
    assert.equal(app.server.listening, true)
    assert.deepEqual(app.addresses(), [{ address: '127.0.0.1', family: 'IPv4', port }])
    const res = await fetch(`${address}/`)
    assert.deepEqual(await res.json(), { hello: 'world' })
    const serving = sink.lines.filter((l) => /^Serving with /.test(l.msg))
    assert.equal(serving.length, 1)
    assert.match(serving[0].msg, new RegExp(`^Serving with ${SERVER.replace('.', '\\.')} \\(runtimeServer: 'auto'`))
    assert.ok(sink.lines.some((l) => l.msg === `Server listening at ${address}`))
    let closed = false
    app.server.once('close', () => { closed = true })
    await app.close()
    assert.equal(closed, true)
    assert.equal(app.server.address(), null)
    await assert.rejects(fetch(`${address}/`))
  })

  await check('request.ip is the client address on the runtime server', async () => {
    const app = trellis()
    app.get('/', async (req: any) => ({ ip: req.ip, port: typeof req.socket.remotePort }))
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const res = await fetch(`http://127.0.0.1:${app.server.address().port}/`)
      assert.deepEqual(await res.json(), { ip: '127.0.0.1', port: 'number' })
    } finally { await app.close() }
  })

  await check('graceful close: a request in flight is answered, new connections are refused', async () => {
    const app = trellis()
    let entered!: () => void
    const inHandler = new Promise<void>((resolve) => { entered = resolve })
    app.get('/slow', async () => { entered(); await settle(300); return { done: true } })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${app.server.address().port}`
    const pending = fetch(`${base}/slow`)
    await inHandler
    const closing = app.close()
    const res = await pending
    assert.equal(res.status, 200)
    assert.deepEqual(await res.json(), { done: true })
    await closing
    await assert.rejects(fetch(`${base}/slow`))
  })

  await check('a client that goes before the answer: onRequestAbort runs, request.signal aborts', async () => {
    const app = lines[5]()
    const seen: string[] = []
    let entered!: () => void
    const inHandler = new Promise<void>((resolve) => { entered = resolve })
    app.addHook('onRequestAbort', async (_request: unknown) => { seen.push('onRequestAbort') })
    app.get('/hang', async (req: any) => {
      req.signal.addEventListener('abort', () => { seen.push('signal') })
      entered()
      await settle(500)
      return 'late'
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const controller = new AbortController()
      const pending = fetch(`http://127.0.0.1:${app.server.address().port}/hang`, { signal: controller.signal })
      await inHandler
      controller.abort()
      await assert.rejects(pending)
      for (let i = 0; i < 50 && seen.length < 2; i++) await settle(20)
      assert.deepEqual(seen.sort(), ['onRequestAbort', 'signal'])
    } finally { await app.close() }
  })

  await check('a port in use rejects listen() with EADDRINUSE', async () => {
    const a = trellis()
    await a.listen({ port: 0, host: '127.0.0.1' })
    const b = trellis()
    try {
      await assert.rejects(b.listen({ port: a.server.address().port, host: '127.0.0.1' }), (err: any) => err.code === 'EADDRINUSE')
    } finally { await a.close(); await b.close() }
  })

  await check("runtimeServer: 'node' serves with the runtime's node:http and says so", async () => {
    const sink = logSink()
    const app = trellis({ runtimeServer: 'node', logger: { level: 'info', stream: sink.stream } })
    app.get('/', async (req: any) => ({ raw: req.raw.constructor.name }))
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const res = await fetch(`http://127.0.0.1:${app.server.address().port}/`)
      assert.deepEqual(await res.json(), { raw: 'IncomingMessage' })
      assert.ok(sink.lines.some((l) => l.msg === `Serving with ${runtime === 'bun' ? 'Bun' : 'Deno'}'s node:http (runtimeServer: 'node')`))
    } finally { await app.close() }
  })

  await check('the raw request on the native server is the fetch message', async () => {
    const app = lines[5]()
    app.get('/', async (req: any) => ({ raw: req.raw.constructor.name, hasRequest: req.raw.request instanceof Request }))
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const res = await fetch(`http://127.0.0.1:${app.server.address().port}/`)
      assert.deepEqual(await res.json(), { raw: 'FetchIncomingMessage', hasRequest: true })
    } finally { await app.close() }
  })

  await check(`the runtime's convention with a detached app.fetch (${runtime === 'bun' ? 'Bun.serve({ fetch: app.fetch })' : 'Deno.serve(app.fetch)'})`, async () => {
    const app = lines[5]()
    app.post('/items', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }, async (req: any) => ({ got: req.body.name }))
    const { fetch: handler } = app
    let port: number
    let stop: () => Promise<void>
    if (runtime === 'bun') {
      const server = (globalThis as any).Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: handler })
      port = server.port
      stop = async () => { await server.stop(true) }
    } else {
      const server = (globalThis as any).Deno.serve({ port: 0, hostname: '127.0.0.1', onListen () {} }, handler)
      port = server.addr.port
      stop = async () => { await server.shutdown() }
    }
    try {
      const ok = await fetch(`http://127.0.0.1:${port}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"name":"a"}' })
      assert.deepEqual(await ok.json(), { got: 'a' })
      const bad = await fetch(`http://127.0.0.1:${port}/items`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
      assert.equal(bad.status, 400)
      assert.equal(((await bad.json()) as { code?: string }).code, 'FST_ERR_VALIDATION')
    } finally { await stop(); await app.close() }
  })
}

async function ecosystem (): Promise<void> {
  const trellis = lines[4]
  const serve = async (register: (app: any) => Promise<void> | void): Promise<{ app: any, base: string }> => {
    const app = trellis()
    await register(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    return { app, base: `http://127.0.0.1:${app.server.address().port}` }
  }

  await check('@fastify/compress gzips a reply', async () => {
    const { app, base } = await serve(async (app) => {
      await app.register(require('@fastify/compress'), { threshold: 0 })
      app.get('/json', async () => ({ text: 'x'.repeat(2000) }))
    })
    try {
      const raw = await viaSocket(Number(new URL(base).port), { url: '/json', headers: { 'accept-encoding': 'gzip' } })
      assert.equal(raw.headers['content-encoding'], 'gzip')
      // read the bytes again without the text decoding of viaSocket
      const bytes = await new Promise<Buffer>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: Number(new URL(base).port), path: '/json', headers: { 'accept-encoding': 'gzip' }, agent: false }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c)).on('end', () => resolve(Buffer.concat(chunks))).on('error', reject)
        }).on('error', reject)
      })
      assert.deepEqual(JSON.parse(gunzipSync(bytes).toString()), { text: 'x'.repeat(2000) })
    } finally { await app.close() }
  })

  await check('@fastify/cors answers a preflight', async () => {
    const { app, base } = await serve(async (app) => {
      await app.register(require('@fastify/cors'), { origin: 'https://a.test' })
      app.get('/', async () => 'ok')
    })
    try {
      const pre = await fetch(`${base}/`, { method: 'OPTIONS', headers: { origin: 'https://a.test', 'access-control-request-method': 'GET' } })
      assert.equal(pre.status, 204)
      assert.equal(pre.headers.get('access-control-allow-origin'), 'https://a.test')
    } finally { await app.close() }
  })

  await check('@fastify/cookie reads cookies and sets several', async () => {
    const { app, base } = await serve(async (app) => {
      await app.register(require('@fastify/cookie'), { secret: 's3cret-s3cret-s3cret' })
      app.get('/', (req: any, reply: any) => { reply.setCookie('a', '1', { path: '/' }).setCookie('b', 'two', { httpOnly: true, signed: true }).send({ seen: req.cookies.in }) })
    })
    try {
      const res = await fetch(`${base}/`, { headers: { cookie: 'in=hello' } })
      assert.deepEqual(await res.json(), { seen: 'hello' })
      assert.equal(res.headers.getSetCookie().length, 2)
    } finally { await app.close() }
  })

  await check('@fastify/multipart parses a streamed FormData body', async () => {
    const { app, base } = await serve(async (app) => {
      await app.register(require('@fastify/multipart'))
      app.post('/upload', async (req: any) => {
        const file = await req.file()
        const content = await file.toBuffer()
        return { name: file.filename, size: content.length, note: file.fields.note?.value }
      })
    })
    try {
      const form = new FormData()
      form.append('note', 'hi')
      form.append('doc', new Blob([new Uint8Array(200 * 1024).fill(65)]), 'big.txt')
      const res = await fetch(`${base}/upload`, { method: 'POST', body: form })
      assert.deepEqual(await res.json(), { name: 'big.txt', size: 200 * 1024, note: 'hi' })
    } finally { await app.close() }
  })

  await check('@fastify/helmet sets its headers', async () => {
    const { app, base } = await serve(async (app) => {
      await app.register(require('@fastify/helmet'))
      app.get('/', async () => 'ok')
    })
    try {
      const res = await fetch(`${base}/`)
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
      assert.equal(await res.text(), 'ok')
    } finally { await app.close() }
  })

  await check('@fastify/websocket: app.server upgrade listeners make node:http serve; a message echoes', async () => {
    const sink = logSink()
    const app = trellis({ logger: { level: 'info', stream: sink.stream } })
    await app.register(require('@fastify/websocket'))
    app.register(async (scope: any) => {
      scope.get('/ws', { websocket: true }, (connection: any) => {
        const socket = connection.socket ?? connection
        socket.on('message', (message: any) => socket.send(`echo:${String(message)}`))
      })
      scope.get('/', async () => ({ http: true }))
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const port = app.server.address().port
      assert.ok(sink.lines.some((l) => /^Serving with (Bun|Deno)'s node:http: app\.server has 'upgrade' listeners/.test(l.msg)), JSON.stringify(sink.lines.map((l) => l.msg)))
      const res = await fetch(`http://127.0.0.1:${port}/`)
      assert.deepEqual(await res.json(), { http: true })
      const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`)
      const echoed = await new Promise<string>((resolve, reject) => {
        ws.onopen = () => ws.send('hi')
        ws.onmessage = (event) => resolve(String(event.data))
        ws.onerror = () => reject(new Error('websocket error'))
      })
      assert.equal(echoed, 'echo:hi')
      ws.close()
    } finally { await app.close() }
  })
}

/** ../fetch/raw-request.ts: request.raw / reply.raw as plugins use them, through app.fetch and over a socket to the native server. */
async function rawRequest (): Promise<void> {
  const throughFetch: Send = (app, path, init) => app.fetch(new Request(`http://localhost${path}`, init))
  const overSocket: Send = async (app, path, init) => {
    if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
    return await fetch(`http://127.0.0.1:${app.server.address().port}${path}`, init)
  }
  for (const c of RAW_CASES) {
    await check(`raw request, app.fetch: ${c.name}`, () => c.run(lines[4], throughFetch))
    await check(`raw request, ${SERVER}: ${c.name}`, () => c.run(lines[5], overSocket))
  }
}

async function main (): Promise<void> {
  const only = process.env.TRELLIS_RUNTIME_PART
  if (only === undefined || only === 'table') await behaviourTable()
  if (only === undefined || only === 'conventions') await conventions()
  if (only === undefined || only === 'ecosystem') await ecosystem()
  if (only === undefined || only === 'raw') await rawRequest()
  console.log('DONE')
  // Bun and Deno keep running while a handle is open: a leftover would hang the parent's test
  setTimeout(() => { process.exit(0) }, 100)
}

main().catch((err) => { console.error(err); process.exit(1) })
