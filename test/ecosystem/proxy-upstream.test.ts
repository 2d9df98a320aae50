/**
 * @fastify/reply-from 10 and @fastify/http-proxy 9 (`fastify: '4.x'`) on trellis, against a local
 * upstream (a plain node http server on a loopback port): proxied GET and POST with bodies, query
 * strings and headers, rewritePrefix, the upstream's status and headers passed back, a reply-from
 * onResponse hook, an unreachable upstream as the plugin's JSON 500 (as on Fastify 4), and websocket proxying.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import trellis, { plugin, pluginPath, byLine } from './target'
import { listen, request } from '../helpers'

// ws is @fastify/websocket's (and http-proxy's) own dependency
const WebSocket = require(require.resolve('ws', { paths: [pluginPath('@fastify/http-proxy')] }))

let upstream: http.Server
let upstreamUrl = ''
let wss: any

before(async () => {
  upstream = http.createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (req.url?.endsWith('/teapot')) { res.writeHead(418, { 'x-upstream': 'yes' }); res.end('short and stout'); return }
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' })
      res.end(JSON.stringify({ method: req.method, url: req.url, body: Buffer.concat(chunks).toString(), auth: req.headers.authorization ?? null, host: req.headers.host }))
    })
  })
  wss = new WebSocket.Server({ server: upstream })
  wss.on('connection', (sock: any, req: http.IncomingMessage) => sock.on('message', (m: Buffer) => sock.send(`upstream ${req.url} got ${m.toString()}`)))
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve))
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as net.AddressInfo).port}`
})
after(async () => { wss.close(); await new Promise((resolve) => upstream.close(resolve)) })

test('http-proxy: GET and POST forwarded under a prefix with rewritePrefix, over a real socket', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/http-proxy'), { upstream: upstreamUrl, prefix: '/api', rewritePrefix: '/v1' })
  app.get('/local', async () => ({ local: true }))
  t.after(() => app.close())
  const { port } = await listen(app)
  const got = await request(port, { path: '/api/items?x=1', headers: { authorization: 'Bearer t' } })
  assert.equal(got.statusCode, 200)
  assert.equal(got.headers['x-upstream'], 'yes')
  const g = JSON.parse(got.body)
  assert.deepEqual([g.method, g.url, g.auth], ['GET', '/v1/items?x=1', 'Bearer t'])
  const posted = await request(port, { method: 'POST', path: '/api/items', body: '{"n":1}', headers: { 'content-type': 'application/json' } })
  assert.deepEqual(JSON.parse(JSON.parse(posted.body).body), { n: 1 })
  const raw = await request(port, { method: 'POST', path: '/api/raw', body: 'plain text', headers: { 'content-type': 'text/plain' } })
  assert.equal(JSON.parse(raw.body).body, 'plain text')
  const tea = await request(port, { path: '/api/teapot' })
  assert.equal(tea.statusCode, 418)
  assert.equal(tea.body, 'short and stout')
  assert.deepEqual(JSON.parse((await request(port, { path: '/local' })).body), { local: true })
})

test('reply.from with rewriteRequestHeaders and onResponse', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/reply-from'), { base: upstreamUrl })
  app.get('/via', (_req: any, reply: any) => {
    reply.from('/somewhere', {
      rewriteRequestHeaders: (_r: any, headers: Record<string, string>) => ({ ...headers, authorization: 'added' }),
      // @fastify/reply-from 12 passes the upstream response as `{ stream, statusCode, headers }`
      onResponse: (_r: any, rep: any, res: any) => { rep.header('x-proxied', '1').send(byLine(res, res.stream)) }
    })
  })
  const res = await app.inject({ url: '/via' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.headers['x-proxied'], '1')
  assert.deepEqual([res.json().url, res.json().auth], ['/somewhere', 'added'])
  await app.close()
})

test('an unreachable upstream is the plugin\'s JSON 500, as on Fastify 4', async () => {
  const closed = net.createServer()
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
  const deadPort = (closed.address() as net.AddressInfo).port
  await new Promise((resolve) => closed.close(resolve))
  const app: any = trellis()
  await app.register(plugin('@fastify/reply-from'), { base: `http://127.0.0.1:${deadPort}` })
  app.get('/x', (_req: any, reply: any) => { reply.from('/x') })
  const res = await app.inject({ url: '/x' })
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_REPLY_FROM_INTERNAL_SERVER_ERROR')
  assert.match(res.json().message, /ECONNREFUSED/)
  await app.close()
})

test('http-proxy websocket: messages relayed to the upstream websocket server', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/http-proxy'), { upstream: upstreamUrl, prefix: '/ws', websocket: true })
  t.after(() => app.close())
  const { port } = await listen(app)
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws/chat`)
  const reply = await new Promise<string>((resolve, reject) => {
    ws.on('open', () => ws.send('hi'))
    ws.on('message', (m: Buffer) => resolve(m.toString()))
    ws.on('error', reject)
  })
  assert.equal(reply, 'upstream /chat got hi')
  ws.close()
})
