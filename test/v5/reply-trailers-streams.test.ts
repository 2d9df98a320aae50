import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { Readable } from 'node:stream'
import { ReadableStream } from 'node:stream/web'
import { v4, v5Targets } from './lines'

interface Answer { statusCode?: number, headers: http.IncomingHttpHeaders, trailers: NodeJS.Dict<string>, body: string }

function getWithTrailers (url: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    http.get(url, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => { resolve({ statusCode: res.statusCode, headers: res.headers, trailers: res.trailers, body }) })
      res.on('error', reject)
    }).on('error', reject)
  })
}

const etag = (_reply: unknown, _payload: unknown, done: (err: null, v: string) => void): void => {
  setTimeout(() => done(null, 'custom-etag'), 10)
}

for (const [name, factory] of v5Targets) {
  test(`${name}: trailers follow a node stream, a web stream and an already-ended stream (real socket)`, async () => {
    const app = factory()
    app.get('/node', (_req: any, reply: any) => { reply.trailer('ETag', etag); reply.send(Readable.from(['hello'])) })
    app.get('/web', (_req: any, reply: any) => {
      reply.trailer('ETag', etag)
      reply.send(new ReadableStream({ start (c) { c.enqueue(Buffer.from('hello')); c.close() } }))
    })
    app.get('/ended', (_req: any, reply: any) => {
      const stream = Readable.from(['hello'])
      stream.resume()
      stream.on('end', () => { reply.trailer('ETag', etag); reply.send(stream) })
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const base = `http://127.0.0.1:${app.server.address().port}`
      for (const path of ['/node', '/web']) {
        const res = await getWithTrailers(base + path)
        assert.equal(res.statusCode, 200)
        assert.equal(res.headers['transfer-encoding'], 'chunked')
        assert.equal(res.headers.trailer, 'etag')
        assert.equal(res.trailers.etag, 'custom-etag', path)
        assert.equal(res.body, 'hello')
      }
      const ended = await getWithTrailers(base + '/ended')
      assert.equal(ended.trailers.etag, 'custom-etag')
      assert.equal(ended.body, '')
    } finally {
      await app.close()
    }
  })

  test(`${name}: with every trailer removed the response is framed as if none was set`, async () => {
    const app = factory()
    app.get('/', (_req: any, reply: any) => {
      reply.trailer('ETag', () => { throw new Error('removed trailers never run') })
      reply.removeTrailer('ETag')
      reply.send('')
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers.trailer, undefined)
    assert.equal(res.headers['transfer-encoding'], undefined)
    assert.equal(res.headers['content-length'], '0')
  })

  test(`${name}: two trailers answered at once are added with one addTrailers and one end`, async () => {
    const app = factory()
    let ends = 0
    let adds = 0
    app.get('/', (_req: any, reply: any) => {
      const end = reply.raw.end.bind(reply.raw)
      reply.raw.end = (...args: unknown[]) => { ends++; return end(...args) }
      const add = reply.raw.addTrailers.bind(reply.raw)
      reply.raw.addTrailers = (...args: unknown[]) => { adds++; return add(...args) }
      reply.trailer('A', (_r: unknown, _p: unknown, done: (e: null, v: string) => void) => done(null, 'a'))
      reply.trailer('B', (_r: unknown, _p: unknown, done: (e: null, v: string) => void) => done(null, 'b'))
      reply.send('hello')
    })
    const res = await app.inject('/')
    assert.deepEqual([res.trailers.a, res.trailers.b, ends, adds], ['a', 'b', 1, 1])
  })

  test(`${name}: a locked web ReadableStream is FST_ERR_REP_READABLE_STREAM_LOCKED`, async () => {
    const app = factory()
    app.get('/', (_req: any, reply: any) => {
      const stream = new ReadableStream({ start (c) { c.enqueue(Buffer.from('hi')); c.close() } })
      const reader = stream.getReader()
      reply.send(stream)
      reader.releaseLock()
    })
    const res = await app.inject('/')
    assert.equal(res.statusCode, 500)
    assert.equal(res.json().code, 'FST_ERR_REP_READABLE_STREAM_LOCKED')
  })
}

test('trellis (v4 line): removed trailers still frame the response as chunked, as Fastify 4.29', async () => {
  const app = v4()
  app.get('/', (_req: any, reply: any) => {
    reply.trailer('ETag', () => 'x')
    reply.removeTrailer('ETag')
    reply.send('')
  })
  const res = await app.inject('/')
  assert.equal(res.headers['transfer-encoding'], 'chunked')
})
