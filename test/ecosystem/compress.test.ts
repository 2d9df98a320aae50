/**
 * @fastify/compress 7 (`fastify: '4.x'`) on trellis, over a real socket: JSON, streams and strings
 * compressed with the encoding the client prefers (br, gzip, deflate), Vary and no Content-Length
 * mismatch, small payloads left alone (threshold), identity when the client asks for nothing, and
 * compressed request bodies decompressed before the JSON parser.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import zlib from 'node:zlib'
import { Readable } from 'node:stream'
import trellis, { plugin, byLine } from './target'
import { listen } from '../helpers'

const big = { items: Array.from({ length: 200 }, (_, i) => ({ i, name: `item-${i}` })) }

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/compress'), { threshold: 1024 })
  app.get('/json', async () => big)
  app.get('/small', async () => ({ s: 1 }))
  app.get('/stream', async (_req: any, reply: any) => reply.type('text/plain').send(Readable.from(['a'.repeat(3000), 'b'.repeat(3000)])))
  app.post('/echo', async (req: any) => ({ n: req.body.items.length }))
  return app
}

function get (port: number, path: string, headers: Record<string, string>): Promise<{ statusCode: number; headers: http.IncomingHttpHeaders; raw: Buffer }> {
  return new Promise((resolve, reject) => {
    http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }))
    }).on('error', reject)
  })
}

test('JSON is compressed with the preferred encoding and decodes to the same value', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const decoders: Record<string, (b: Buffer) => Buffer> = { br: zlib.brotliDecompressSync, gzip: zlib.gunzipSync, deflate: zlib.inflateSync }
  for (const [accept, expected] of [['gzip, deflate, br', 'br'], ['gzip', 'gzip'], ['deflate', 'deflate'], ['br;q=0.1, gzip;q=0.9', 'gzip']]) {
    const res = await get(port, '/json', { 'accept-encoding': accept })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-encoding'], expected, accept)
    assert.match(String(res.headers.vary), /accept-encoding/i)
    // @fastify/compress 7 streams every compressed reply (no Content-Length); 9 compresses a
    // buffered payload at once and sends its exact compressed length
    assert.equal(res.headers['content-length'], byLine(undefined, String(res.raw.length)))
    assert.deepEqual(JSON.parse(decoders[expected](res.raw).toString()), big)
    assert.ok(res.raw.length < JSON.stringify(big).length / 3)
  }
})

test('streams are compressed; small payloads and clients without Accept-Encoding get identity', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const stream = await get(port, '/stream', { 'accept-encoding': 'gzip' })
  assert.equal(stream.headers['content-encoding'], 'gzip')
  assert.equal(zlib.gunzipSync(stream.raw).toString(), 'a'.repeat(3000) + 'b'.repeat(3000))
  const small = await get(port, '/small', { 'accept-encoding': 'gzip' })
  assert.equal(small.headers['content-encoding'], undefined)
  assert.deepEqual(JSON.parse(small.raw.toString()), { s: 1 })
  const plain = await get(port, '/json', {})
  assert.equal(plain.headers['content-encoding'], undefined)
  assert.deepEqual(JSON.parse(plain.raw.toString()), big)
})

test('a gzip request body is decompressed before parsing; a corrupt one is a 400', async () => {
  const app = await build()
  const ok = await app.inject({
    method: 'POST',
    url: '/echo',
    payload: zlib.gzipSync(JSON.stringify(big)),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }
  })
  assert.equal(ok.statusCode, 200)
  assert.deepEqual(ok.json(), { n: 200 })
  const bad = await app.inject({
    method: 'POST',
    url: '/echo',
    payload: Buffer.from('not gzip at all'),
    headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }
  })
  assert.equal(bad.statusCode, 400)
  assert.equal(bad.json().statusCode, 400)
  await app.close()
})

test('under inject too: app.inject gets a gzip body', async () => {
  const app = await build()
  const res = await app.inject({ url: '/json', headers: { 'accept-encoding': 'gzip' } })
  assert.equal(res.headers['content-encoding'], 'gzip')
  assert.deepEqual(JSON.parse(zlib.gunzipSync(res.rawPayload).toString()), big)
  await app.close()
})

test('route options: compress: false, a route-level encodings list, reply.compress for a stream', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/compress'), { global: true, threshold: 0 })
  app.get('/off', { compress: false }, async () => big)
  app.get('/gzip-only', { compress: { encodings: ['gzip'] } }, async () => big)
  app.get('/manual', (_req: any, reply: any) => { reply.type('text/plain').compress(Readable.from(['x'.repeat(2000)])) })
  await app.ready()
  const off = await app.inject({ url: '/off', headers: { 'accept-encoding': 'gzip' } })
  assert.equal(off.headers['content-encoding'], undefined)
  assert.deepEqual(off.json(), big)
  const only = await app.inject({ url: '/gzip-only', headers: { 'accept-encoding': 'br, gzip' } })
  assert.equal(only.headers['content-encoding'], 'gzip')
  const manual = await app.inject({ url: '/manual', headers: { 'accept-encoding': 'deflate' } })
  assert.equal(manual.headers['content-encoding'], 'deflate')
  assert.equal(zlib.inflateSync(manual.rawPayload).toString(), 'x'.repeat(2000))
  await app.close()
})
