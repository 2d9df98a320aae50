import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, rawRequest } from '../helpers'

test('malformed HTTP gets the 400 JSON answer and the connection is closed', async () => {
  const app = trellis()
  const { port } = await listen(app)
  try {
    const body = JSON.stringify({ error: 'Bad Request', message: 'Client Error', statusCode: 400 })
    const raw = await rawRequest(port, 'oooops!\r\n\r\n')
    assert.equal(raw, `HTTP/1.1 400 Bad Request\r\nContent-Length: ${body.length}\r\nContent-Type: application/json\r\n\r\n${body}`)
  } finally { await app.close() }
})

test('clientErrorHandler option replaces the answer to malformed HTTP; this is the instance', async () => {
  let self: unknown
  const app = trellis({
    clientErrorHandler (this: unknown, _err: Error, socket) { self = this; socket.end('HTTP/1.1 418 I\'m a Teapot\r\nContent-Length: 0\r\n\r\n') }
  })
  const { port } = await listen(app)
  try {
    const raw = await rawRequest(port, 'oooops!\r\n\r\n')
    assert.match(raw, /^HTTP\/1.1 418/)
    assert.equal(self, app)
  } finally { await app.close() }
})
