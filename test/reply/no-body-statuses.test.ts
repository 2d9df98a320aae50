import { test } from 'node:test'
import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import trellis from '../../src/index'
import { listen, parseRaw, rawRequest } from '../helpers'

function app204 (): any {
  const app: any = trellis()
  app.get('/null', (_req: any, reply: any) => { reply.status(204); return null })
  app.get('/object', (_req: any, reply: any) => { reply.status(204).send({ message: 'hello' }) })
  app.get('/stream', (_req: any, reply: any) => {
    reply.status(204).send(new Readable({ read () { this.push('ignored'); this.push(null) } }))
  })
  app.register(async (child: any) => {
    // an onSend hook that turns the payload into an object: never written for a 204 (Fastify 4.29)
    child.addHook('onSend', async (_req: any, _reply: any, payload: unknown) => ({ wrapped: payload }))
    child.get('/on-send', (_req: any, reply: any) => { reply.status(204).send({ hello: 'world' }) })
  })
  return app
}

test('204 answers carry no body, no content-length and no content-type, whatever the handler sent (inject)', async () => {
  const app = app204()
  for (const url of ['/null', '/object', '/stream', '/on-send']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 204, url)
    assert.equal(res.payload, '', url)
    assert.equal(res.headers['content-length'], undefined, url)
    assert.equal(res.headers['content-type'], undefined, url)
  }
  await app.close()
})

test('204 answers over a real socket: no body, no length, and the keep-alive connection serves the next request', async () => {
  const app = app204()
  app.get('/after', async () => ({ ok: true }))
  const { port } = await listen(app)
  try {
    const text = await rawRequest(port,
      'GET /object HTTP/1.1\r\nHost: x\r\n\r\n' +
      'GET /on-send HTTP/1.1\r\nHost: x\r\n\r\n' +
      'GET /after HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const answers = text.split(/(?=HTTP\/1\.1 )/)
    assert.equal(answers.length, 3, text)
    for (const answer of answers.slice(0, 2)) {
      const res = parseRaw(answer)
      assert.equal(res.statusCode, 204)
      assert.equal(res.headers['content-length'], undefined)
      assert.equal(res.headers['content-type'], undefined)
      assert.equal(res.body, '')
    }
    const last = parseRaw(answers[2])
    assert.equal(last.statusCode, 200)
    assert.deepEqual(JSON.parse(last.body), { ok: true })
  } finally {
    await app.close()
  }
})

test('a 1xx status set by the handler is sent without a body or content headers', async () => {
  const app: any = trellis()
  app.get('/', (_req: any, reply: any) => { reply.code(103).send({ ignored: true }) })
  const { port } = await listen(app)
  try {
    const text = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const res = parseRaw(text)
    assert.equal(res.statusCode, 103)
    assert.equal(res.headers['content-type'], undefined)
    assert.equal(res.headers['content-length'], undefined)
    assert.doesNotMatch(text, /ignored/)
  } finally {
    await app.close()
  }
})
