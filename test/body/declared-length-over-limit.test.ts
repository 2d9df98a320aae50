import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import trellis from '../../src/index'

/** Sends `data` on one socket; resolves with everything received until the server closes it (or 2 s). */
function exchange (port: number, data: string): Promise<{ text: string, closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    let closedByServer = false
    const timer = setTimeout(() => socket.destroy(), 2000)
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('end', () => { closedByServer = true })
    socket.on('close', () => { clearTimeout(timer); resolve({ text: Buffer.concat(chunks).toString(), closedByServer }) })
    socket.on('error', (err: NodeJS.ErrnoException) => { if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err) })
    socket.write(data)
  })
}

test('a declared Content-Length over the body limit: 413 with Connection: close, and the server closes the socket', async () => {
  const app: any = trellis({ bodyLimit: 10 })
  app.post('/', async (req: any) => req.body)
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const port = app.addresses()[0].port
    const { text, closedByServer } = await exchange(port,
      'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":1}')
    assert.match(text, /^HTTP\/1\.1 413 /)
    assert.match(text, /\r\nconnection: close\r\n/i)
    assert.match(text, /"code":"FST_ERR_CTP_BODY_TOO_LARGE"/)
    assert.equal(closedByServer, true, 'the client does not wait on a kept-alive socket')
    // within the limit, keep-alive stays on
    const small = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' })
    assert.equal(small.status, 200)
    assert.notEqual(small.headers.get('connection'), 'close')
  } finally {
    await app.close()
  }
})
