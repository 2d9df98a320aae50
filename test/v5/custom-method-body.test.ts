import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { v4, v5Targets } from './lines'

function getWithBody (port: number, body: string): Promise<{ status: number | undefined, body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'GET', path: '/', headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { text += chunk })
      res.on('end', () => { resolve({ status: res.statusCode, body: text }) })
    })
    req.on('error', reject)
    req.end(body)
  })
}

const objectBody = { body: { type: 'object', properties: { hello: { type: 'string' } }, required: ['hello'] } }

for (const [name, factory] of v5Targets) {
  test(`${name}: a body schema on a method added without a body is refused when the route is added`, () => {
    const app = factory()
    app.addHttpMethod('REBIND')
    app.route({ method: 'REBIND', url: '/', handler: async () => 'ok' })
    // the body check comes before the router sees a second REBIND route on '/'
    assert.throws(() => app.route({ method: 'REBIND', url: '/', schema: objectBody, handler: async () => 'ok' }),
      { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED', message: 'Body validation schema for REBIND:/ route is not supported!' })
    assert.throws(() => app.route({ method: 'TRACE', url: '/trace', schema: objectBody, handler: async () => 'ok' }),
      { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED' })
  })

  test(`${name}: addHttpMethod('GET', { hasBody: true }) gives GET routes a validated body`, async () => {
    const app = factory()
    app.addHttpMethod('GET', { hasBody: true, overrideExisting: true })
    app.route({ method: 'GET', url: '/', exposeHeadRoute: false, schema: objectBody, handler: async (req: any) => req.body })
    const ok = await app.inject({ method: 'GET', url: '/', payload: { hello: 'world' } })
    assert.equal(ok.statusCode, 200)
    assert.deepEqual(ok.json(), { hello: 'world' })
    const invalid = await app.inject({ method: 'GET', url: '/', payload: { other: 1 } })
    assert.equal(invalid.statusCode, 400)
    assert.equal(invalid.json().code, 'FST_ERR_VALIDATION')

    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    assert.deepEqual(await getWithBody(port, '{"hello":"socket"}'), { status: 200, body: '{"hello":"socket"}' })
    assert.equal((await getWithBody(port, '{"hello":')).status, 400)
    await app.close()
  })

  test(`${name}: addHttpMethod('POST', { hasBody: false }) stops POST bodies and body schemas`, async () => {
    const app = factory()
    app.addHttpMethod('POST', { hasBody: false, overrideExisting: true })
    assert.throws(() => app.post('/schema', { schema: objectBody }, async () => 'ok'), { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED' })
    app.post('/', async (req: any) => ({ body: req.body ?? null }))
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 1 } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.json(), { body: null })
    await app.close()
  })
}

test('trellis (v4 line): GET keeps no body and refuses a body schema', async () => {
  const app = v4()
  assert.throws(() => app.get('/schema', { schema: objectBody }, async () => 'ok'), { code: 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED' })
  app.get('/', async (req: any) => ({ body: req.body ?? null }))
  const res = await app.inject({ method: 'GET', url: '/', payload: { hello: 'world' } })
  assert.deepEqual(res.json(), { body: null })
  await app.close()
})
