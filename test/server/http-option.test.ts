import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, parseRaw, rawRequest } from '../helpers'

const bigHeaderRequest = 'GET / HTTP/1.1\r\nHost: x\r\nX-Big: ' + 'a'.repeat(300) + '\r\nConnection: close\r\n\r\n'

test('the http option (Fastify 4.29) reaches node\'s http.createServer: maxHeaderSize 200 refuses a 300-byte header with 431', async () => {
  const small = trellis({ http: { maxHeaderSize: 200 } })
  small.get('/', async () => 'ok')
  const { port } = await listen(small)
  try {
    const res = parseRaw(await rawRequest(port, bigHeaderRequest))
    assert.equal(res.statusCode, 431)
    assert.equal(JSON.parse(res.body).statusCode, 431)
  } finally {
    await small.close()
  }
  const normal = trellis()
  normal.get('/', async () => 'ok')
  const other = await listen(normal)
  try {
    const res = parseRaw(await rawRequest(other.port, bigHeaderRequest))
    assert.equal(res.statusCode, 200)
    assert.equal(res.body, 'ok')
  } finally {
    await normal.close()
  }
})

test('trellis\'s own timeouts win over the same names in the http option; a non-object http option is refused', () => {
  const app = trellis({ http: { requestTimeout: 5, keepAliveTimeout: 7 }, requestTimeout: 120000 })
  assert.equal(app.server.requestTimeout, 120000)
  assert.equal(app.server.keepAliveTimeout, 72000)
  assert.throws(() => trellis({ http: 'yes' } as never), { code: 'FST_ERR_INIT_OPTS_INVALID' })
  // trellis-only limits not given as options: the http option's values apply; given: they win
  assert.equal(trellis({ http: { headersTimeout: 5000 } }).server.headersTimeout, 5000)
  assert.equal(trellis({ http: { headersTimeout: 5000 }, headersTimeout: 7000 }).server.headersTimeout, 7000)
})
