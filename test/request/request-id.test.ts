import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, rawRequest, request } from '../helpers'

// The request-id header is read from rawHeaders (src/routing/request-id.ts); the id must be what
// req.headers['request-id'] gives, over a real socket where node parses the headers.

test('request-id header: any case, once or repeated, gives the id node\'s req.headers gives', async () => {
  const app = trellis()
  app.get('/', async (req) => ({ id: req.id, header: req.headers['request-id'] ?? null }))
  const { port } = await listen(app)
  const once = JSON.parse((await request(port, { headers: { 'Request-ID': 'abc-1' } })).body)
  assert.deepEqual(once, { id: 'abc-1', header: 'abc-1' })
  const twice = await rawRequest(port, 'GET / HTTP/1.1\r\nHost: x\r\nrequest-id: one\r\nREQUEST-ID: two\r\nConnection: close\r\n\r\n')
  const body = JSON.parse(twice.slice(twice.indexOf('\r\n\r\n') + 4))
  assert.equal(body.id, body.header)
  assert.equal(body.id, 'one, two')
  const none = JSON.parse((await request(port)).body)
  assert.match(none.id, /^req-/)
  const empty = JSON.parse((await request(port, { headers: { 'request-id': '' } })).body)
  assert.match(empty.id, /^req-/)
  await app.close()
})

test('requestIdHeader: false and a custom header name', async () => {
  const off = trellis({ requestIdHeader: false })
  off.get('/', async (req) => req.id)
  assert.match((await off.inject({ url: '/', headers: { 'request-id': 'x' } })).body, /^req-/)
  await off.close()
  const custom = trellis({ requestIdHeader: 'x-trace' })
  custom.get('/', async (req) => req.id)
  assert.equal((await custom.inject({ url: '/', headers: { 'X-Trace': 't-9' } })).body, 't-9')
  await custom.close()
})
