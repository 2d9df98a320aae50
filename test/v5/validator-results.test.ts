// How Fastify 5 reads what a validator returns: `{ value }` replaces the part even when the value is
// falsy; an async validator only passes or fails (its resolved value is the client's data); a
// headers schema that removes Host leaves the request without a host.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { connect } from 'node:net'
import { v4, v5Targets } from './lines'

const coercingCompiler = () => (data: any) =>
  data !== null && typeof data === 'object' && 'coerceTo' in data ? { value: data.coerceTo } : true

/** One raw HTTP/1.1 exchange; resolves with the whole response text. */
function rawRequest (port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    let data = ''
    socket.on('data', (chunk) => { data += chunk })
    socket.on('end', () => resolve(data))
    socket.on('error', reject)
    socket.write(request)
  })
}

for (const [name, factory] of v5Targets) {
  test(`${name}: a validator's { value } replaces the part even when it is falsy`, async () => {
    const app = factory()
    app.setValidatorCompiler(coercingCompiler)
    app.post('/', { schema: { body: { type: 'object' } } }, async (req: any) => ({ body: req.body }))
    for (const value of [0, '', false, null]) {
      const res = await app.inject({ method: 'POST', url: '/', payload: { coerceTo: value } })
      assert.deepEqual(res.json(), { body: value })
    }
    await app.close()
  })

  test(`${name}: an async validator's result only passes or fails (value and error keys are data)`, async () => {
    const app = factory()
    app.post('/', {
      schema: { body: { $async: true, type: 'object', additionalProperties: true, properties: { hello: { type: 'string' } } } }
    }, async (req: any) => req.body)
    for (const body of [{ hello: 'world', value: { hello: 'evil' } }, { hello: 'world', error: 'boom' }]) {
      const res = await app.inject({ method: 'POST', url: '/', payload: body })
      assert.equal(res.statusCode, 200)
      assert.deepEqual(res.json(), body)
    }
    assert.equal((await app.inject({ method: 'POST', url: '/', payload: { hello: { not: 'a string' } } })).statusCode, 400)
    await app.close()
  })

  test(`${name}: a headers schema that removes Host leaves request.host empty, over a real socket`, async () => {
    for (const trustProxy of [false, true]) {
      const app = factory({ trustProxy })
      app.get('/', {
        schema: { headers: { type: 'object', properties: {}, additionalProperties: false } }
      }, async (req: any) => ({ host: req.host, hostname: req.hostname, port: req.port, headerHost: req.headers.host ?? null }))
      await app.listen({ port: 0, host: '127.0.0.1' })
      try {
        const response = await rawRequest(app.server.address().port,
          'GET / HTTP/1.1\r\nHost: localhost:3000\r\nX-Forwarded-Host: proxy.example\r\nConnection: close\r\n\r\n')
        assert.match(response, /^HTTP\/1.1 200 OK/)
        assert.deepEqual(JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4)), { host: '', hostname: '', port: null, headerHost: null })
      } finally {
        await app.close()
      }
    }
  })
}

test('trellis (v4 line): a falsy { value } keeps the part', async () => {
  const app = v4()
  app.setValidatorCompiler(coercingCompiler)
  app.post('/', { schema: { body: { type: 'object' } } }, async (req: any) => ({ body: req.body }))
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { coerceTo: 0 } })).json(), { body: { coerceTo: 0 } })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { coerceTo: 'x' } })).json(), { body: 'x' })
  await app.close()
})
