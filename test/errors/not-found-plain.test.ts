import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, rawRequest, parseRaw } from '../helpers'

// A 404 route nothing can observe (default handler, no hooks, no reply serializer, silent logger)
// is answered without the full request path (src/lifecycle/plain-not-found.ts). Its bytes must be
// the full path's: compared here with an app whose 404 route has a do-nothing onResponse hook, which
// sends it down the full path.

function build (fullPath: boolean): ReturnType<typeof trellis> {
  const app = trellis()
  if (fullPath) app.addHook('onResponse', (_req, _reply, done) => { done() })
  app.get('/exists', async () => 'x')
  app.register(async (child) => { child.get('/in', async () => 'in') }, { prefix: '/api' })
  return app
}

const requests = [
  'GET /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'GET /exists/?a=1&b=%20 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'HEAD /nowhere HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'POST /exists HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
  'DELETE /api/"quoted"/%C3%A9 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
  'GET /nowhere HTTP/1.0\r\n\r\n'
]

const withoutDate = (raw: string): string => raw.replace(/\r\nDate: [^\r]*/i, '')

test('plain 404 answers are byte for byte the full request path\'s, over a real socket', async () => {
  const plain = build(false)
  const full = build(true)
  const a = await listen(plain)
  const b = await listen(full)
  try {
    for (const raw of requests) {
      const fast = withoutDate(await rawRequest(a.port, Buffer.from(raw, 'latin1')))
      const slow = withoutDate(await rawRequest(b.port, Buffer.from(raw, 'latin1')))
      assert.equal(parseRaw(fast).statusCode, 404, raw)
      assert.equal(fast, slow, raw)
    }
  } finally {
    await plain.close()
    await full.close()
  }
})

test('plain 404 answers match the full path over inject, HEAD included', async () => {
  const plain = build(false)
  const full = build(true)
  for (const opts of [{ url: '/nowhere' }, { method: 'HEAD' as const, url: '/x?y=1' }, { method: 'PUT' as const, url: '/api/none', payload: { a: 1 } }]) {
    const x = await plain.inject(opts)
    const y = await full.inject(opts)
    assert.equal(x.statusCode, 404)
    assert.equal(x.body, y.body)
    const { date: _d1, ...hx } = x.headers
    const { date: _d2, ...hy } = y.headers
    assert.deepEqual(hx, hy)
  }
  await plain.close()
  await full.close()
})

test('a 404 answered on the plain path still calls genReqId and an application querystring parser', async () => {
  let ids = 0
  const queries: string[] = []
  const app = trellis({ genReqId: () => `id-${++ids}`, querystringParser: (q: string) => { queries.push(q); return {} } })
  app.get('/', async (request) => request.id)
  assert.equal((await app.inject('/missing?a=1')).statusCode, 404)
  assert.equal((await app.inject('/missing')).statusCode, 404)
  assert.deepEqual(queries, ['a=1'])
  assert.equal((await app.inject('/')).body, 'id-3')
  await app.close()
})

test('a 404 route with any hook, a reply serializer or a logger takes the full path', async () => {
  const seen: string[] = []
  const hooked = trellis()
  hooked.addHook('onSend', async (_req, _reply, payload) => { seen.push('onSend'); return payload })
  assert.equal((await hooked.inject('/missing')).statusCode, 404)
  assert.deepEqual(seen, ['onSend'])

  const serialized = trellis()
  serialized.setReplySerializer(() => '{"serialized":true}')
  assert.equal((await serialized.inject('/missing')).body, '{"serialized":true}')

  const lines: string[] = []
  const logged = trellis({ logger: { level: 'info', stream: { write: (l: string) => { lines.push(l) } } } })
  assert.equal((await logged.inject('/missing')).statusCode, 404)
  assert.ok(lines.some((l) => l.includes('Route GET:/missing not found')), lines.join(''))
  // with disableRequestLogging the 404 line is not written either (Fastify 4.29)
  const quietLines: string[] = []
  const quiet = trellis({ logger: { level: 'info', stream: { write: (l: string) => { quietLines.push(l) } } }, disableRequestLogging: true })
  assert.equal((await quiet.inject('/missing')).statusCode, 404)
  assert.deepEqual(quietLines, [])
  await Promise.all([hooked.close(), serialized.close(), logged.close(), quiet.close()])
})
