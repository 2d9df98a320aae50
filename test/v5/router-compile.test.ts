import { test } from 'node:test'
import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { createRequire } from 'node:module'
import FindMyWay from 'find-my-way'
import { v4, v5Targets } from './lines'

type RouterPrototype = { compile: () => void }
// trellis's find-my-way; fastify@5 (installed apart, in the suite packages' cache:
// scripts/suite-deps.mjs) has its own copy, the one its router is made with
const routerPrototype = Object.getPrototypeOf(FindMyWay()) as RouterPrototype
const fastifyFindMyWay = createRequire(require.resolve('fastify'))('find-my-way') as typeof FindMyWay
const prototypes: Record<string, RouterPrototype> = {
  'trellis/v5': routerPrototype,
  'fastify@5': Object.getPrototypeOf(fastifyFindMyWay()) as RouterPrototype
}

function buildApp (factory: (opts?: object) => any, opts?: object): any {
  const app = factory(opts)
  app.get('/users/:id', async (req: any) => ({ id: req.params.id }))
  app.get('/files/*', async (req: any) => ({ path: req.params['*'] }))
  app.post('/users', async (req: any) => ({ created: req.body }))
  app.get('/versioned', { constraints: { version: '1.2.0' } }, async () => 'v1')
  app.get('/versioned', { constraints: { version: '2.0.0' } }, async () => 'v2')
  return app
}

async function assertRoutes (app: any): Promise<void> {
  assert.deepEqual((await app.inject('/users/caf%C3%A9')).json(), { id: 'café' })
  assert.deepEqual((await app.inject('/files/a/b.txt')).json(), { path: 'a/b.txt' })
  assert.deepEqual((await app.inject({ method: 'POST', url: '/users', payload: { name: 'a' } })).json(), { created: { name: 'a' } })
  assert.equal((await app.inject({ url: '/versioned', headers: { 'accept-version': '2.x' } })).body, 'v2')
  const head = await app.inject({ method: 'HEAD', url: '/users/1' })
  assert.equal(head.statusCode, 200)
  assert.equal(head.body, '')
  assert.equal((await app.inject('/nothing')).statusCode, 404)
  assert.equal((await app.inject({ method: 'DELETE', url: '/users/1' })).statusCode, 404)
}

for (const [name, factory] of v5Targets) {
  test(`${name}: routerOptions.compile is off by default and absent from initialConfig`, async (t) => {
    const compile = t.mock.method(prototypes[name], 'compile')
    const app = buildApp(factory)
    assert.equal(app.initialConfig.routerOptions, undefined)
    await app.ready()
    await assertRoutes(app)
    assert.equal(compile.mock.callCount(), 0)
    await app.close()
  })

  test(`${name}: routerOptions.compile: true compiles the router at ready, routes answer as before`, async (t) => {
    const compile = t.mock.method(prototypes[name], 'compile')
    const app = buildApp(factory, { routerOptions: { compile: true } })
    assert.equal(app.initialConfig.routerOptions.compile, true)
    assert.equal(app.initialConfig.routerOptions.maxParamLength, 100)
    assert.equal(compile.mock.callCount(), 0)
    await app.ready()
    // fastify@5 also compiles its 404 router; trellis's 404 routes are a prefix table, not a router
    assert.ok(compile.mock.callCount() >= 1)
    const afterReady = compile.mock.callCount()
    await assertRoutes(app)
    assert.equal(compile.mock.callCount(), afterReady)
    assert.ok(app.hasRoute({ method: 'GET', url: '/users/:id' }))
    assert.deepEqual({ ...app.findRoute({ method: 'GET', url: '/users/42' }).params }, { id: '42' })

    const address = await app.listen({ port: 0, host: '127.0.0.1' })
    assert.equal(typeof (app.server.address() as AddressInfo).port, 'number')
    assert.deepEqual(await (await fetch(address + '/files/x/y')).json(), { path: 'x/y' })
    assert.equal((await fetch(address + '/nope')).status, 404)
    await app.close()
  })

  test(`${name}: routerOptions.compile keeps the other router options and asynchronous constraints`, async () => {
    const app = factory({
      routerOptions: {
        compile: true,
        ignoreTrailingSlash: true,
        caseSensitive: false,
        maxParamLength: 5,
        constraints: {
          secret: {
            name: 'secret',
            storage () {
              const stores: Record<string, unknown> = {}
              return { get: (k: string) => stores[k] ?? null, set: (k: string, v: unknown) => { stores[k] = v } }
            },
            deriveConstraint (req: any, _ctx: unknown, done: (err: Error | null, value?: string) => void) { setImmediate(() => { done(null, req.headers['x-secret']) }) },
            validate () { return true }
          }
        }
      }
    })
    app.get('/foo/:id', async (req: any) => ({ id: req.params.id }))
    app.get('/', { constraints: { secret: 'alpha' } }, async () => 'alpha')
    assert.deepEqual((await app.inject('/FOO/abc/')).json(), { id: 'abc' })
    assert.equal((await app.inject('/foo/toolong')).statusCode, 414)
    assert.equal((await app.inject({ url: '/', headers: { 'x-secret': 'alpha' } })).body, 'alpha')
    assert.equal((await app.inject({ url: '/', headers: { 'x-secret': 'beta' } })).statusCode, 404)
    await app.close()
  })

  test(`${name}: routerOptions.compile must be a boolean ('true', 1, null coerced)`, async () => {
    assert.throws(() => factory({ routerOptions: { compile: 'yes' } }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
    assert.throws(() => factory({ routerOptions: { compile: {} } }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
    assert.equal(factory({ routerOptions: { compile: 'true' } }).initialConfig.routerOptions.compile, true)
    assert.equal(factory({ routerOptions: { compile: 1 } }).initialConfig.routerOptions.compile, true)
    assert.equal(factory({ routerOptions: { compile: null } }).initialConfig.routerOptions.compile, false)
    // only in routerOptions
    assert.equal(factory({ compile: true }).initialConfig.routerOptions, undefined)
  })
}

test('trellis (v4 line): routerOptions (compile included) is not an option', async (t) => {
  const compile = t.mock.method(routerPrototype, 'compile')
  const app = buildApp(v4, { routerOptions: { compile: 'yes' } })
  assert.equal(app.initialConfig.routerOptions, undefined)
  await app.ready()
  await assertRoutes(app)
  assert.equal(compile.mock.callCount(), 0)
  await app.close()
})
