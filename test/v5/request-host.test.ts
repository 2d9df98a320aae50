import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import { v4, v5Targets } from './lines'

const hostRoute = (app: any): void => {
  app.get('/', async (req: any) => ({ host: req.host ?? null, hostname: req.hostname ?? null, port: req.port ?? null }))
}

for (const [name, factory] of v5Targets) {
  test(`${name}: request.host keeps the port, hostname drops it, port is a number or null`, async () => {
    const app = factory()
    hostRoute(app)
    const cases: Array<[string, object]> = [
      ['example.com:8080', { host: 'example.com:8080', hostname: 'example.com', port: 8080 }],
      ['example.com', { host: 'example.com', hostname: 'example.com', port: null }],
      ['[::1]:3000', { host: '[::1]:3000', hostname: '[::1]', port: 3000 }],
      ['[::1]', { host: '[::1]', hostname: '[::1]', port: null }]
    ]
    for (const [host, expected] of cases) {
      assert.deepEqual((await app.inject({ url: '/', headers: { host } })).json(), expected, host)
    }
    await app.close()
  })

  test(`${name}: a trusted proxy's X-Forwarded-Host is the host, over a real socket`, async () => {
    const app = factory({ trustProxy: true })
    hostRoute(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const { port } = app.server.address()
      const body = await new Promise<string>((resolve, reject) => {
        const req = httpRequest({ port, host: '127.0.0.1', path: '/', headers: { host: 'inner:1', 'x-forwarded-host': 'spoof:1, public.example:8443' } }, (res) => {
          let data = ''
          res.on('data', (c) => { data += c })
          res.on('end', () => resolve(data))
        })
        req.on('error', reject)
        req.end()
      })
      assert.deepEqual(JSON.parse(body), { host: 'public.example:8443', hostname: 'public.example', port: 8443 })
    } finally {
      await app.close()
    }
  })

  test(`${name}: request.signal aborts when the client goes away`, async () => {
    const app = factory()
    let aborted: Promise<boolean> | undefined
    app.get('/slow', (req: any) => {
      aborted = new Promise((resolve) => req.signal.addEventListener('abort', () => resolve(true)))
      return new Promise(() => {})
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const { port } = app.server.address()
      const req = httpRequest({ port, host: '127.0.0.1', path: '/slow' })
      req.on('error', () => {})
      req.end()
      while (aborted === undefined) await new Promise((resolve) => setTimeout(resolve, 5))
      req.destroy()
      assert.equal(await aborted, true)
    } finally {
      await app.close()
    }
  })
}

test('trellis (v4 line): hostname keeps the port, no host/port, routerPath still answers', async () => {
  const app = v4()
  app.get('/', async (req: any) => ({ hostname: req.hostname, host: req.host ?? null, port: req.port ?? null, signal: typeof req.signal }))
  assert.deepEqual((await app.inject({ url: '/', headers: { host: 'example.com:8080' } })).json(), { hostname: 'example.com:8080', host: null, port: null, signal: 'undefined' })
})
