import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import os from 'node:os'
import path from 'node:path'
import trellis, { errorCodes } from '../../src/index'

test('a failed listen calls back with (err, null)', async () => {
  const app = trellis()
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    const [err, address] = await new Promise<[Error | null, unknown]>((resolve) => {
      app.listen({ port: app.addresses()[0].port }, (e: Error | null, a?: string | null) => resolve([e, a]))
    })
    assert.ok(err)
    assert.equal(address, null)
  } finally { await app.close() }
})

test('listening on a Unix socket: addresses() lists the socket path', async () => {
  const app = trellis()
  const sock = path.join(os.tmpdir(), `trellis-${process.pid}-${Date.now()}.sock`)
  const address = await app.listen({ path: sock })
  try {
    assert.equal(address, sock)
    assert.deepEqual(app.addresses(), [sock])
  } finally { await app.close() }
})

test('serverFactory servers keep their own timeout; forceCloseConnections idle needs closeIdleConnections', () => {
  const factory = (handler: (req: any, res: any) => void): http.Server => http.createServer(handler).setTimeout(5)
  assert.equal(trellis({ connectionTimeout: 4, serverFactory: factory }).server.timeout, 5)
  assert.equal(trellis({ connectionTimeout: 4 }).server.timeout, 4)
  assert.throws(() => trellis({ forceCloseConnections: 'idle', serverFactory: () => ({ on () {} }) } as never), errorCodes.FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE)
})
