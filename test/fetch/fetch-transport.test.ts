// What only the fetch entry has: app.fetch readies the application, the Request's signal aborts
// the exchange (onRequestAbort, request.signal), bodies stream both ways with backpressure, the
// peer's address comes from the runtime's context argument, and trailers are not sent.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable, getDefaultHighWaterMark } from 'node:stream'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'
import { logCollector } from '../helpers'
import { setWorkerTarget } from '../../src/base/worker-target'

const v4 = trellisV4 as unknown as (opts?: object) => any
const v5 = trellisV5 as unknown as (opts?: object) => any

const transportLoaded = (): boolean => Object.keys(require.cache).some((file) => /transport[\\/]fetch\.(ts|js)$/.test(file))

test('the first call readies the application: plugins load, onReady runs', async () => {
  // an application that never serves fetch never loads the transport
  const other = v4()
  await other.inject({ url: '/nothing' })
  await other.close()
  assert.equal(transportLoaded(), false)
  const app = v4()
  const seen: string[] = []
  app.register(async (child: any) => {
    await new Promise((resolve) => setTimeout(resolve, 5))
    child.get('/late', async () => ({ late: true }))
  })
  app.addHook('onReady', async () => { seen.push('ready') })
  const res = await app.fetch(new Request('http://localhost/late'))
  assert.equal(res.status, 200)
  assert.deepEqual(await res.json(), { late: true })
  assert.deepEqual(seen, ['ready'])
  assert.equal(transportLoaded(), true)
  await app.close()
})

test('fetch taken off the instance works (Deno.serve(app.fetch), export default { fetch })', async () => {
  const app = v5()
  app.get('/', async () => 'detached')
  const { fetch } = app
  const res = await fetch(new Request('http://localhost/'))
  assert.equal(await res.text(), 'detached')
  await app.close()
})

test('a closed application refuses; something other than a Request is a TypeError', async () => {
  const app = v4()
  app.get('/', async () => 'x')
  await assert.rejects(app.fetch('http://localhost/' as never), TypeError)
  await app.close()
  await assert.rejects(app.fetch(new Request('http://localhost/')), { code: 'FST_ERR_REOPENED_CLOSE_SERVER', message: 'Server is closed' })
})

test('a Request body without a length (made in-process) is read as a chunked one', async () => {
  const app = v4()
  app.post('/', async (req: any) => ({ body: req.body, te: req.headers['transfer-encoding'] ?? null }))
  const res = await app.fetch(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' }))
  assert.deepEqual(await res.json(), { body: { a: 1 }, te: 'chunked' })
  await app.close()
})

test('an https URL makes request.protocol https; the peer comes from the context argument', async () => {
  const app = v5({ trustProxy: false })
  app.get('/', async (req: any) => ({ protocol: req.protocol, ip: req.ip, port: req.socket.remotePort }))
  // Deno.serve's handler info
  let res = await app.fetch(new Request('https://example.test/'), { remoteAddr: { transport: 'tcp', hostname: '10.1.2.3', port: 4321 } })
  assert.deepEqual(await res.json(), { protocol: 'https', ip: '10.1.2.3', port: 4321 })
  // Bun.serve's server
  const server = { requestIP: (r: Request) => { assert.ok(r instanceof Request); return { address: '::1', family: 'IPv6', port: 99 } } }
  res = await app.fetch(new Request('http://example.test/'), server)
  assert.deepEqual(await res.json(), { protocol: 'http', ip: '::1', port: 99 })
  // none given: no address, as for a socket that has gone
  res = await app.fetch(new Request('http://example.test/'))
  assert.deepEqual(await res.json(), { protocol: 'http' })
  await app.close()
})

test('in a built Worker the peer is the cf-connecting-ip header Cloudflare sets; elsewhere the header is not believed', async (t) => {
  const app = v4()
  app.get('/', async (req: any) => ({ ip: req.ip ?? null, family: req.socket.remoteFamily ?? null }))
  t.after(async () => { setWorkerTarget(false); await app.close() })
  const env = { SECRET: 'x' }
  const from = (ip?: string): Request => new Request('https://worker.test/', { headers: ip === undefined ? {} : { 'cf-connecting-ip': ip } })
  // not a Worker: a client could send the header, so the address is the context's (none here)
  assert.deepEqual(await (await app.fetch(from('203.0.113.7'), env, {})).json(), { ip: null, family: null })
  // the Worker (src/worker.ts turns the target on): its context is env, ctx, and the header is the client
  setWorkerTarget(true)
  assert.deepEqual(await (await app.fetch(from('203.0.113.7'), env, {})).json(), { ip: '203.0.113.7', family: 'IPv4' })
  assert.deepEqual(await (await app.fetch(from('2001:db8::1'), env, {})).json(), { ip: '2001:db8::1', family: 'IPv6' })
  assert.deepEqual(await (await app.fetch(from(), env, {})).json(), { ip: null, family: null })
})

test('the raw request keeps the Request and the context arguments', async () => {
  const app = v4()
  const env = { SECRET: 'x' }
  app.get('/', async (req: any) => ({ same: req.raw.request.url, env: req.raw.context[0] === env }))
  const res = await app.fetch(new Request('http://localhost/?a=1'), env, {})
  assert.deepEqual(await res.json(), { same: 'http://localhost/?a=1', env: true })
  await app.close()
})

test('the Request signal aborting runs onRequestAbort, aborts request.signal and fails the exchange', async () => {
  const app = v5()
  const seen: string[] = []
  let entered!: () => void
  const inHandler = new Promise<void>((resolve) => { entered = resolve })
  app.addHook('onRequestAbort', async (req: any) => { seen.push(`abort ${req.url}`) })
  app.get('/slow', async (req: any) => {
    req.signal.addEventListener('abort', () => seen.push('signal'))
    entered()
    await new Promise((resolve) => setTimeout(resolve, 50))
    return 'too late'
  })
  const controller = new AbortController()
  const pending = app.fetch(new Request('http://localhost/slow', { signal: controller.signal }))
  await inHandler
  controller.abort()
  await assert.rejects(pending)
  await new Promise((resolve) => setTimeout(resolve, 80))
  assert.deepEqual(seen.sort(), ['abort /slow', 'signal'])
  await app.close()
})

test('an aborted Request is not answered: onRequestAbort runs, the handler need not', async () => {
  const app = v4()
  const seen: string[] = []
  app.addHook('onRequestAbort', async (_req: any) => { seen.push('abort') })
  app.get('/', async () => 'x')
  const controller = new AbortController()
  controller.abort()
  await assert.rejects(app.fetch(new Request('http://localhost/', { signal: controller.signal })))
  await new Promise((resolve) => setTimeout(resolve, 10))
  assert.deepEqual(seen, ['abort'])
  await app.close()
})

/**
 * How many 1 KiB chunks the buffers between a source and its reader may hold: a few of node's
 * default stream high-water marks (16 KiB up to Node 20, 64 KiB from Node 22), plus slack. Without
 * backpressure an endless source makes thousands in the same time.
 */
const BUFFERED_CHUNKS = Math.ceil(2 * getDefaultHighWaterMark(false) / 1024) + 8

test('a streamed answer is produced as the Response is read (backpressure), and cancelling stops the source', async () => {
  const app = v4()
  let produced = 0
  let destroyed = false
  app.get('/', (_req: any, reply: any) => {
    const source = new Readable({
      highWaterMark: 1024,
      read () { produced++; this.push(Buffer.alloc(1024, 120)) },
      destroy (err, cb) { destroyed = true; cb(err) }
    })
    reply.type('application/octet-stream').send(source)
  })
  const res = await app.fetch(new Request('http://localhost/'))
  const reader = res.body!.getReader()
  const first = await reader.read()
  assert.equal(first.done, false)
  await new Promise((resolve) => setTimeout(resolve, 30))
  // an endless source: only what the buffers hold between it and the reader has been made
  assert.ok(produced < BUFFERED_CHUNKS, `${produced} chunks produced for one read (at most ${BUFFERED_CHUNKS})`)
  await reader.cancel()
  await new Promise((resolve) => setTimeout(resolve, 10))
  assert.equal(destroyed, true)
  await app.close()
})

test('a Request body is pulled only as the application reads it (backpressure)', async () => {
  const app = v4()
  let pulled = 0
  app.addContentTypeParser('application/x-lazy', (_req: any, payload: any, done: any) => { done(null, payload) })
  app.post('/', async (req: any) => {
    const first = await new Promise<Buffer>((resolve) => req.body.once('data', resolve))
    req.body.pause()
    await new Promise((resolve) => setTimeout(resolve, 20))
    return { first: first.length }
  })
  const body = new ReadableStream<Uint8Array>({ pull (c) { pulled++; c.enqueue(new Uint8Array(1024)) } }, { highWaterMark: 0 })
  const res = await app.fetch(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/x-lazy' }, body, duplex: 'half' } as RequestInit))
  assert.deepEqual(await res.json(), { first: 1024 })
  assert.ok(pulled < BUFFERED_CHUNKS, `${pulled} chunks pulled of an endless body (at most ${BUFFERED_CHUNKS})`)
  await app.close()
})

test('a GET nobody reads the body of never pulls it', async () => {
  const app = v4()
  let pulled = 0
  app.post('/', { }, async () => 'no body read')
  app.addContentTypeParser('application/x-ignored', (_req: any, _payload: any, done: any) => { done(null, null) })
  const body = new ReadableStream<Uint8Array>({ pull (c) { pulled++; c.enqueue(new Uint8Array(8)) } }, { highWaterMark: 0 })
  const res = await app.fetch(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/x-ignored' }, body, duplex: 'half' } as RequestInit))
  assert.equal(await res.text(), 'no body read')
  assert.equal(pulled, 0)
  await app.close()
})

test('trailers: the body is sent, no trailer or transfer-encoding header (a Response carries none)', async () => {
  for (const factory of [v4, v5]) {
    const app = factory()
    app.get('/', (_req: any, reply: any) => {
      reply.trailer('x-sum', (_reply: any, _payload: unknown, done: any) => { done(null, 'abc') })
      reply.send('body')
    })
    const res = await app.fetch(new Request('http://localhost/'))
    assert.equal(res.status, 200)
    assert.equal(await res.text(), 'body')
    assert.equal(res.headers.get('trailer'), null)
    assert.equal(res.headers.get('transfer-encoding'), null)
    await app.close()
  }
})

test('a rewriteUrl that returns no string fails the exchange', async () => {
  const app = v4({ rewriteUrl: () => 42 })
  app.get('/', async () => 'x')
  await assert.rejects(app.fetch(new Request('http://localhost/')), { code: 'FST_ERR_ROUTE_REWRITE_NOT_STR' })
  await app.close()
})

test('return503OnClosing: while closing, a fetch is a 503', async () => {
  const app = v4()
  let release!: () => void
  app.addHook('preClose', (done: () => void) => { release = done })
  app.get('/', async () => 'x')
  await app.ready()
  const closing = app.close()
  await new Promise((resolve) => setTimeout(resolve, 5))
  const res = await app.fetch(new Request('http://localhost/'))
  assert.equal(res.status, 503)
  assert.equal(res.headers.get('connection'), null)
  release()
  await closing
})

test('the URL gives the path with its query and the Host a client would send', async () => {
  const app = v4()
  app.get('/*', async (req: any) => ({ url: req.url, host: req.headers.host, query: req.query }))
  const cases: Array<[string, object]> = [
    ['http://localhost', { url: '/', host: 'localhost', query: {} }],
    ['http://h.test?x=1', { url: '/?x=1', host: 'h.test', query: { x: '1' } }],
    ['https://h.test:8443/a%20b/c?q=%C3%A9#frag', { url: '/a%20b/c?q=%C3%A9', host: 'h.test:8443', query: { q: 'é' } }],
    ['http://[::1]:3000/p', { url: '/p', host: '[::1]:3000', query: {} }]
  ]
  for (const [href, expected] of cases) {
    const res = await app.fetch(new Request(href))
    assert.deepEqual(await res.json(), expected, href)
  }
  // an object shaped like a Request may carry a URL no Request would serialize: credentials, no path
  const shaped = (url: string): Request => ({ url, method: 'GET', headers: new Headers(), body: null, bodyUsed: false }) as unknown as Request
  for (const [href, expected] of [
    ['http://user:pw@h.test?x=1', { url: '/?x=1', host: 'h.test', query: { x: '1' } }],
    ['https://user@h.test:8443/p#frag', { url: '/p', host: 'h.test:8443', query: {} }]
  ] as const) {
    const res = await app.fetch(shaped(href))
    assert.deepEqual(await res.json(), expected, href)
  }
  await app.close()
})

test('trustProxy applies to the address the context gives', async () => {
  const app = v4({ trustProxy: '10.0.0.1' })
  app.get('/', async (req: any) => ({ ip: req.ip, protocol: req.protocol, host: req.hostname }))
  const headers = { 'x-forwarded-for': '203.0.113.7', 'x-forwarded-proto': 'https', 'x-forwarded-host': 'public.test' }
  let res = await app.fetch(new Request('http://internal/', { headers }), { remoteAddress: '10.0.0.1' })
  assert.deepEqual(await res.json(), { ip: '203.0.113.7', protocol: 'https', host: 'public.test' })
  // from an address it does not trust, the forwarded headers are not believed
  res = await app.fetch(new Request('http://internal/', { headers }), { remoteAddress: '10.0.0.2' })
  assert.deepEqual(await res.json(), { ip: '10.0.0.2', protocol: 'http', host: 'internal' })
  await app.close()
})

test('a 1xx status cannot be a Response: the exchange fails', async () => {
  const app = v4()
  app.get('/', (_req: any, reply: any) => { reply.code(102).send() })
  await assert.rejects(app.fetch(new Request('http://localhost/')), RangeError)
  await app.close()
})

test('request logging: incoming request and request completed, with the address from the context', async () => {
  const { stream, lines } = logCollector()
  const app = v4({ logger: { level: 'info', stream } })
  app.get('/logged', async () => 'x')
  const res = await app.fetch(new Request('http://localhost/logged?a=1'), { remoteAddress: '192.0.2.9', remotePort: 5555 })
  assert.equal(await res.text(), 'x')
  await new Promise((resolve) => setTimeout(resolve, 20))
  const incoming = lines.find((l) => l.msg === 'incoming request')
  const completed = lines.find((l) => l.msg === 'request completed')
  assert.ok(incoming !== undefined && completed !== undefined, JSON.stringify(lines))
  assert.deepEqual({ method: incoming.req.method, url: incoming.req.url, remoteAddress: incoming.req.remoteAddress, remotePort: incoming.req.remotePort },
    { method: 'GET', url: '/logged?a=1', remoteAddress: '192.0.2.9', remotePort: 5555 })
  assert.equal(completed.res.statusCode, 200)
  await app.close()
})

test('the raw request and response on the fetch path answer what plugins call on node\'s objects', async () => {
  const app = v4()
  app.get('/', (request: any, reply: any) => {
    const socket = request.raw.socket
    const chained = [socket.setTimeout(1000), socket.setNoDelay(true), socket.setKeepAlive(true), socket.ref(), socket.unref()].every((s) => s === socket)
    reply.raw.appendHeader('x-many', 'a')
    reply.raw.appendHeader('x-many', 'b')
    reply.send({
      chained,
      address: socket.address(),
      sameSocket: request.raw.connection === socket && reply.raw.socket === socket && reply.raw.connection === socket,
      names: reply.raw.getHeaderNames(),
      finished: reply.raw.finished
    })
  })
  const res = await app.fetch(new Request('http://localhost/'))
  assert.equal(res.headers.get('x-many'), 'a, b')
  assert.deepEqual(await res.json(), { chained: true, address: {}, sameSocket: true, names: ['x-many'], finished: false })
  await app.close()
})

/** A Request whose signal counts the listeners added to it and removed from it. */
function watchedRequest (url: string, init?: RequestInit): { request: Request, added: () => number, removed: () => number } {
  const request = new Request(url, init)
  const signal = request.signal
  let added = 0
  let removed = 0
  const add = signal.addEventListener.bind(signal)
  const remove = signal.removeEventListener.bind(signal)
  signal.addEventListener = ((...args: Parameters<AbortSignal['addEventListener']>) => { added++; add(...args) }) as AbortSignal['addEventListener']
  signal.removeEventListener = ((...args: Parameters<AbortSignal['removeEventListener']>) => { removed++; remove(...args) }) as AbortSignal['removeEventListener']
  return { request, added: () => added, removed: () => removed }
}

test('the Request signal is listened to only while something observes an abort', async () => {
  const app = v5()
  app.get('/plain', async () => ({ plain: true }))
  app.post('/json', async (req: any) => req.body)
  app.get('/signal', async (req: any) => ({ aborted: req.signal.aborted }))
  app.register(async (child: any) => {
    child.addHook('onRequestAbort', async (_req: any) => {})
    child.get('/hooked', async () => 'hooked')
  })
  for (const [path, init, watched] of [
    ['/plain', undefined, 0],
    ['/json', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': '7' }, body: '{"a":1}' }, 0],
    ['/signal', undefined, 1],
    ['/hooked', undefined, 1]
  ] as const) {
    const { request, added, removed } = watchedRequest(`http://localhost${path}`, init)
    const res = await app.fetch(request)
    assert.equal(res.status, 200, path)
    await res.arrayBuffer()
    await new Promise((resolve) => setImmediate(resolve))
    assert.equal(added(), watched, `${path}: listeners added to the signal`)
    assert.equal(removed(), watched, `${path}: listeners removed once the answer is out`)
  }
  await app.close()
})

test('a body of declared length is read whole: bodyLimit and the length still hold, the stream then ends empty', async () => {
  const app = v4({ bodyLimit: 16 })
  app.post('/', async (req: any) => {
    let rest = 0
    for await (const chunk of req.raw) rest += chunk.length
    return { body: req.body, rest }
  })
  const post = (body: string, length: number): Promise<Response> =>
    app.fetch(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(length) }, body }))
  const ok = await post('{"a":1}', 7)
  assert.equal(ok.status, 200)
  assert.deepEqual(await ok.json(), { body: { a: 1 }, rest: 0 })
  const short = await post('{"a":1}', 6)
  assert.equal(short.status, 400)
  assert.equal((await short.json() as { code: string }).code, 'FST_ERR_CTP_INVALID_CONTENT_LENGTH')
  // a length under the limit does not let a longer body through
  const long = await post(`{"a":"${'x'.repeat(40)}"}`, 7)
  assert.equal(long.status, 413)
  assert.equal((await long.json() as { code: string }).code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  const declared = await post(`{"a":"${'x'.repeat(40)}"}`, 48)
  assert.equal(declared.status, 413)
  await app.close()
})

test('reply.raw on the fetch path: finish then close after the end, a write after the end goes to its callback', async () => {
  const app = v4()
  const events: string[] = []
  let late: unknown
  app.get('/', (_req: any, reply: any) => {
    reply.raw.on('finish', () => {
      events.push('finish')
      reply.raw.write('late', (err: any) => { late = err?.code })
    })
    reply.raw.on('close', () => { events.push('close') })
    reply.send('done')
    events.push(`sent ${String(reply.raw.writableEnded)} ${String(reply.raw.writableFinished)}`)
  })
  const res = await app.fetch(new Request('http://localhost/'))
  assert.equal(await res.text(), 'done')
  await new Promise((resolve) => setTimeout(resolve, 10))
  assert.deepEqual(events, ['sent true false', 'finish', 'close'])
  assert.equal(late, 'ERR_STREAM_WRITE_AFTER_END')
  await app.close()
})

test('a listener added to request.raw by any of the emitter methods hears the client go away', async () => {
  for (const method of ['on', 'once', 'addListener', 'prependListener', 'prependOnceListener'] as const) {
    for (const event of ['close', 'aborted'] as const) {
      const app = v4()
      let heard: Promise<string> | undefined
      let entered: () => void = () => {}
      const inHandler = new Promise<void>((resolve) => { entered = resolve })
      app.get('/', (req: any, reply: any) => {
        heard = new Promise((resolve) => { req.raw[method](event, () => resolve(event)) })
        entered()
        // answers only after the client has gone
        heard.then(() => reply.send('late'), () => {})
      })
      const controller = new AbortController()
      const answered = app.fetch(new Request('http://localhost/', { signal: controller.signal })).then(() => 'answered', () => 'rejected')
      await inHandler
      controller.abort()
      assert.equal(await heard, event, `${method}('${event}')`)
      await answered
      await app.close()
    }
  }
})

test('reply.raw.socket on the fetch path drops an informational response written raw and refuses any other write', async () => {
  const app = trellisV4()
  app.get('/hints', async (_request: any, reply: any) => {
    // what @fastify/early-hints does: a 103 written onto the socket, the callback awaited
    await new Promise<void>((resolve) => { reply.raw.socket.write('HTTP/1.1 103 Early Hints\r\nLink: </a.css>; rel=preload\r\n\r\n', 'ascii', resolve) })
    assert.equal(reply.raw.socket.write(Buffer.from('HTTP/1.1 100 Continue\r\n\r\n')), true)
    return { page: true }
  })
  app.get('/raw', async (_request: any, reply: any) => {
    reply.raw.socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi')
    return { never: true }
  })
  const hints = await app.fetch(new Request('http://app.test/hints'))
  assert.deepEqual([hints.status, await hints.json()], [200, { page: true }])
  const raw = await app.fetch(new Request('http://app.test/raw'))
  assert.equal(raw.status, 500)
  assert.match((await raw.json() as { message: string }).message, /^reply\.raw\.socket\.write\(\): a fetch exchange has no connection to write to/)
  await app.close()
})
