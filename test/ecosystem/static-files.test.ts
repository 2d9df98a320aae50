/**
 * @fastify/static 7 (`fastify: '4.x'`) on trellis, over a real socket (its users rely on node's
 * streaming): files with type, length, ETag and Last-Modified; 304 for If-None-Match and
 * If-Modified-Since; byte ranges (206, Content-Range, 416); index.html for a directory; HEAD;
 * no way out of the root; `reply.sendFile` and `reply.download`.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import trellis, { plugin, byLine } from './target'
import { listen, request, rawRequest, parseRaw } from '../helpers'

const root = join(__dirname, 'fixtures', 'static')
const LETTERS = '0123456789abcdefghijklmnopqrstuvwxyz\n'
// the file outside the root (its text is not in any URL: a 404 body quotes the URL it refused)
const SECRET = readFileSync(join(__dirname, 'fixtures', 'secret.txt'), 'utf8').trim()

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/static'), { root, prefix: '/public/' })
  app.get('/report', async (_req: any, reply: any) => reply.sendFile('letters.txt'))
  app.get('/download', async (_req: any, reply: any) => reply.download('letters.txt', 'abc.txt'))
  return app
}

test('a file with its type, length, ETag and Last-Modified; conditional requests get 304', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const res = await request(port, { path: '/public/letters.txt' })
  assert.equal(res.statusCode, 200)
  assert.equal(res.body, LETTERS)
  assert.match(String(res.headers['content-type']), /^text\/plain/)
  assert.equal(res.headers['content-length'], String(LETTERS.length))
  assert.equal(res.headers['accept-ranges'], 'bytes')
  assert.match(String(res.headers.etag), /^(W\/)?"/)
  assert.ok(res.headers['last-modified'])
  const byTag = await request(port, { path: '/public/letters.txt', headers: { 'if-none-match': String(res.headers.etag) } })
  assert.equal(byTag.statusCode, 304)
  assert.equal(byTag.body, '')
  const byDate = await request(port, { path: '/public/letters.txt', headers: { 'if-modified-since': String(res.headers['last-modified']) } })
  assert.equal(byDate.statusCode, 304)
  const css = await request(port, { path: '/public/sub/style.css' })
  assert.match(String(css.headers['content-type']), /^text\/css/)
})

test('byte ranges: 206 with Content-Range, suffix ranges, 416 outside the file', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const part = await request(port, { path: '/public/letters.txt', headers: { range: 'bytes=10-15' } })
  assert.equal(part.statusCode, 206)
  assert.equal(part.body, 'abcdef')
  assert.equal(part.headers['content-range'], `bytes 10-15/${LETTERS.length}`)
  assert.equal(part.headers['content-length'], '6')
  const tail = await request(port, { path: '/public/letters.txt', headers: { range: 'bytes=-4' } })
  assert.equal(tail.statusCode, 206)
  assert.equal(tail.body, 'xyz\n')
  const bad = await request(port, { path: '/public/letters.txt', headers: { range: 'bytes=500-600' } })
  assert.equal(bad.statusCode, 416)
  assert.equal(bad.headers['content-range'], `bytes */${LETTERS.length}`)
})

test('a directory serves its index.html; HEAD has headers and no body; missing files are 404', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const index = await request(port, { path: '/public/' })
  assert.equal(index.statusCode, 200)
  assert.equal(index.body, '<h1>index</h1>\n')
  const head = await request(port, { method: 'HEAD', path: '/public/letters.txt' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.headers['content-length'], String(LETTERS.length))
  assert.equal(head.body, '')
  const missing = await request(port, { path: '/public/nope.txt' })
  assert.equal(missing.statusCode, 404)
  assert.equal(JSON.parse(missing.body).statusCode, 404)
})

test('no path leaves the root (dot segments, encoded dot segments)', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  for (const path of ['/public/../secret.txt', '/public/%2e%2e/secret.txt', '/public/..%2fsecret.txt', '/public/sub/..%2f..%2fsecret.txt']) {
    const res = parseRaw(await rawRequest(port, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))
    assert.ok(res.statusCode >= 400 && res.statusCode < 500, `${path}: ${res.statusCode}`)
    assert.ok(!res.body.includes(SECRET), path)
  }
})

test('reply.sendFile and reply.download', async () => {
  const app = await build()
  const sent = await app.inject({ url: '/report' })
  assert.equal(sent.statusCode, 200)
  assert.equal(sent.body, LETTERS)
  const dl = await app.inject({ url: '/download' })
  assert.equal(dl.statusCode, 200)
  // @fastify/static 10 (content-disposition 1+) leaves a token file name unquoted
  assert.equal(dl.headers['content-disposition'], byLine('attachment; filename="abc.txt"', 'attachment; filename=abc.txt'))
  assert.equal(dl.body, LETTERS)
  await app.close()
})

test('wildcard: false (a route per file), and preCompressed .gz siblings', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/static'), { root, wildcard: false, preCompressed: true })
  t.after(() => app.close())
  const { port } = await listen(app)
  assert.equal(app.hasRoute({ method: 'GET', url: '/letters.txt' }), true)
  assert.equal(app.hasRoute({ method: 'GET', url: '/sub/style.css' }), true)
  const gz = await request(port, { path: '/letters.txt', headers: { 'accept-encoding': 'gzip' } })
  assert.equal(gz.statusCode, 200)
  assert.equal(gz.headers['content-encoding'], 'gzip')
  assert.match(String(gz.headers['content-type']), /^text\/plain/)
  const plain = await request(port, { path: '/letters.txt' })
  assert.equal(plain.headers['content-encoding'], undefined)
  assert.equal(plain.body, LETTERS)
  assert.equal((await request(port, { path: '/nope.txt' })).statusCode, 404)
})
