/**
 * Plugins that write to the socket themselves, on trellis over a real socket: @fastify/early-hints
 * 1 (`fastify: '4.x'`) sends `103 Early Hints` with Link headers before the final response;
 * @fastify/throttle 2 (`fastify: '4.x'`) paces a streamed reply's bytes (its default: streams only) (a lower bound on the delivery time
 * only: a loaded machine can only make it slower) and leaves unthrottled routes alone.
 *
 * On the Fastify 5 line: @fastify/early-hints has no Fastify-5 major (1.0.1 is its only release):
 * Fastify 5 sends early hints itself, `reply.writeEarlyHints(hints)` (node's
 * `res.writeEarlyHints`), so that line checks the same exchange through the built-in method;
 * @fastify/throttle 3 (`fastify: '5.x'`) is checked as its major 2 is.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import trellis, { plugin, line } from './target'
import { listen, rawRequest } from '../helpers'

test(line === 4
  ? '@fastify/early-hints: a 103 with the Link headers, then the 200 on the same socket'
  : 'reply.writeEarlyHints (Fastify 5\'s built-in early hints): a 103 with the Link headers, then the 200', async (t) => {
  const app: any = trellis()
  if (line === 4) await app.register(plugin('@fastify/early-hints'))
  app.get('/', async (_req: any, reply: any) => {
    if (line === 4) {
      await reply.writeEarlyHints({ Link: '</style.css>; rel=preload; as=style' })
      await reply.writeEarlyHintsLinks([{ href: '/app.js', rel: 'preload', as: 'script' }])
    } else {
      reply.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' })
      reply.writeEarlyHints({ link: '</app.js>; rel=preload; as=script' })
    }
    return { page: true }
  })
  t.after(() => app.close())
  const { port } = await listen(app)
  const raw = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
  const heads = raw.split('\r\n\r\n')
  assert.equal(heads[0], 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style')
  assert.equal(heads[1], 'HTTP/1.1 103 Early Hints\r\nLink: </app.js>; rel=preload; as=script')
  assert.match(heads[2], /^HTTP\/1\.1 200 OK\r\n/)
  assert.equal(heads[3], '{"page":true}')
  // node's client sees the informational responses too
  const infos: number[] = []
  const body = await new Promise<string>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/', agent: false }, (res) => {
      let b = ''
      res.on('data', (c: Buffer) => { b += c.toString() })
      res.on('end', () => resolve(b))
    })
    req.on('information', (info) => infos.push(info.statusCode))
    req.on('error', reject)
  })
  assert.deepEqual(infos, [103, 103])
  assert.equal(body, '{"page":true}')
})

test('@fastify/throttle paces a throttled route and leaves the others alone', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/throttle'), { global: false })
  // the stream lets bytesPerSecond bytes through at once, then bytesPerSecond more each second:
  // 1500 bytes at 1000 B/s need one tick of its 1 s interval
  const payload = 'z'.repeat(1500)
  app.get('/slow', { config: { throttle: { bytesPerSecond: 1000 } } }, async (_req: any, reply: any) => reply.type('text/plain').send(Readable.from([payload])))
  app.get('/fast', async (_req: any, reply: any) => reply.type('text/plain').send(Readable.from([payload])))
  t.after(() => app.close())
  const { url } = await listen(app)
  const t0 = process.hrtime.bigint()
  const slow = await (await fetch(`${url}/slow`)).text()
  const slowMs = Number(process.hrtime.bigint() - t0) / 1e6
  assert.equal(slow, payload)
  assert.ok(slowMs >= 900, `1500 bytes at 1000 B/s took ${slowMs} ms`)
  const fast = await (await fetch(`${url}/fast`)).text()
  assert.equal(fast, payload)
})
