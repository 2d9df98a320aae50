import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import { v4, v5Targets } from './lines'

function headOver (port: number, host: string): Promise<{ status: number | undefined, length: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'HEAD', path: '/', headers: { host } }, (res) => {
      res.resume()
      res.on('end', () => { resolve({ status: res.statusCode, length: res.headers['content-length'] }) })
    })
    req.on('error', reject)
    req.end()
  })
}

const GET_BODY = 'Hello from the constrained GET route'
const HEAD_BODY = 'from the HEAD route'

function constrainedAfterHead (factory: (opts?: object) => any): any {
  const app = factory()
  app.route({ method: 'HEAD', url: '/', handler: (_req: any, reply: any) => { reply.type('text/plain').send(HEAD_BODY) } })
  app.route({ method: 'GET', url: '/', constraints: { host: 'api.example' }, handler: (_req: any, reply: any) => { reply.type('text/plain').send(GET_BODY) } })
  return app
}

for (const [name, factory] of v5Targets) {
  test(`${name}: a HEAD route added after the GET route that got an automatic one is FST_ERR_DUPLICATED_ROUTE`, async () => {
    const warnings: string[] = []
    const onWarning = (w: any): void => { warnings.push(w.code) }
    process.on('warning', onWarning)
    const app = factory()
    app.get('/', async () => 'get')
    assert.throws(() => app.head('/', async () => ''), { code: 'FST_ERR_DUPLICATED_ROUTE', message: "Method 'HEAD' already declared for route '/'" })
    // inside a plugin, the boot fails with it
    app.get('/in-plugin', async () => 'get')
    app.register(async (child: any) => { child.head('/in-plugin', async () => '') })
    await assert.rejects(app.ready(), { code: 'FST_ERR_DUPLICATED_ROUTE' })

    // declared first, the HEAD route is the one that answers; asking for a HEAD route warns nothing
    const ok = factory()
    ok.head('/', async (_req: any, reply: any) => { reply.header('x-head', 'own') })
    ok.get('/', { exposeHeadRoute: true }, async () => 'get')
    const res = await ok.inject({ method: 'HEAD', url: '/' })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['x-head'], 'own')
    await new Promise((resolve) => setImmediate(resolve))
    process.off('warning', onWarning)
    assert.deepEqual(warnings.filter((code) => code === 'FSTDEP007'), [])
    await ok.close()
  })

  test(`${name}: without exposeHeadRoutes a HEAD route may follow the GET route`, async () => {
    const app = factory({ exposeHeadRoutes: false })
    app.get('/', async () => 'get')
    app.head('/', async (_req: any, reply: any) => { reply.header('x-head', 'own') })
    assert.equal((await app.inject({ method: 'HEAD', url: '/' })).headers['x-head'], 'own')
    await app.close()
  })

  test(`${name}: a constrained GET route after an unconstrained HEAD route gets its own automatic HEAD route`, async () => {
    const app = constrainedAfterHead(factory)
    const matching = await app.inject({ method: 'HEAD', url: '/', headers: { host: 'api.example' } })
    assert.equal(matching.statusCode, 200)
    assert.equal(matching.headers['content-length'], String(GET_BODY.length))
    assert.equal(matching.body, '')
    const other = await app.inject({ method: 'HEAD', url: '/', headers: { host: 'other.example' } })
    assert.equal(other.headers['content-length'], String(HEAD_BODY.length))

    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    assert.deepEqual(await headOver(port, 'api.example'), { status: 200, length: String(GET_BODY.length) })
    assert.deepEqual(await headOver(port, 'other.example'), { status: 200, length: String(HEAD_BODY.length) })
    await app.close()
  })
}

test('trellis (v4 line): a later HEAD route replaces the automatic one; an unconstrained HEAD route answers every host', async () => {
  const app = v4()
  app.get('/', async () => 'get')
  app.head('/', async (_req: any, reply: any) => { reply.header('x-head', 'own') })
  assert.equal((await app.inject({ method: 'HEAD', url: '/' })).headers['x-head'], 'own')
  await app.close()

  const constrained = constrainedAfterHead(v4)
  const res = await constrained.inject({ method: 'HEAD', url: '/', headers: { host: 'api.example' } })
  assert.equal(res.headers['content-length'], String(HEAD_BODY.length))
  await constrained.close()
})
