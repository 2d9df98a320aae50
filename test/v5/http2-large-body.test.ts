import { test } from 'node:test'
import assert from 'node:assert/strict'
import http2 from 'node:http2'
import { v4, v5Targets } from './lines'

function get (client: http2.ClientHttp2Session, path: string): Promise<{ status: number | undefined, body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = client.request({ ':path': path })
    const chunks: Buffer[] = []
    let status: number | undefined
    req.on('response', (headers) => { status = headers[':status'] })
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => resolve({ status, body: Buffer.concat(chunks) }))
    req.on('error', reject)
    req.end()
  })
}

for (const [name, factory] of v5Targets) {
  test(`${name}: over HTTP/2 a handler timeout aborts a large body the client never reads, and the server goes on`, { timeout: 10000 }, async () => {
    const big = Buffer.alloc(2 * 1024 * 1024, 'a')
    const app = factory({ http2: true, handlerTimeout: 100 })
    app.get('/big', async (_req: any, reply: any) => { reply.type('text/plain'); return big })
    app.get('/after', async () => 'ok')
    await app.listen({ port: 0, host: '127.0.0.1' })
    const client = http2.connect(`http://127.0.0.1:${app.server.address().port}`)
    try {
      const status = await new Promise<number | undefined>((resolve) => {
        const req = client.request({ ':path': '/big' })
        let got: number | undefined
        req.on('response', (headers) => { got = headers[':status']; req.pause() })
        req.on('error', () => {})
        req.on('close', () => resolve(got))
        req.end()
      })
      assert.equal(status, 200)
      const after = await get(client, '/after')
      assert.equal(after.body.toString(), 'ok')
    } finally {
      client.close()
      await app.close()
    }
  })
}

for (const [name, factory] of [...v5Targets, ['trellis (v4 line)', v4] as const]) {
  test(`${name}: a large HTTP/2 body is written whole`, async () => {
    const big = Buffer.alloc(300 * 1024 + 7, 'b')
    const app = factory({ http2: true })
    app.get('/big', async () => big)
    app.get('/text', async (_req: any, reply: any) => { reply.type('text/plain'); return 'é'.repeat(40 * 1024) })
    await app.listen({ port: 0, host: '127.0.0.1' })
    const client = http2.connect(`http://127.0.0.1:${app.server.address().port}`)
    try {
      const res = await get(client, '/big')
      assert.ok(res.body.equals(big))
      const text = await get(client, '/text')
      assert.equal(text.body.toString(), 'é'.repeat(40 * 1024))
    } finally {
      client.close()
      await app.close()
    }
  })
}
