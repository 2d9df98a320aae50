// The instance methods Fastify 4.29 lets a caller take off their instance (`t.after(app.close)`,
// `const { inject } = app`) work detached, and a method taken from a plugin's instance acts on that
// plugin's context. Runs against the real fastify@4.29.1 too: ECOSYSTEM_TARGET=<fastify package>
// (see test/ecosystem/target.ts; `npm run test:ecosystem-on-fastify -- test/context/detached`).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { request } from 'node:http'
import type { AddressInfo } from 'node:net'
import target from '../ecosystem/target'

type Fn = (...args: any[]) => any

function get (port: number, path: string): Promise<{ status: number, body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => { body += chunk })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

test('close taken off the instance closes it: onClose hooks run and the server stops listening', async (t) => {
  const app = target()
  t.after(() => app.close()) // a failed assertion must not leave the server open
  const closed: string[] = []
  app.addHook('onClose', async () => { closed.push('hook') })
  app.get('/', async () => 'up')
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as AddressInfo).port
  assert.equal((await get(port, '/')).body, 'up')
  const close = app.close as Fn
  assert.equal(app.close, close, 'the same function each time it is read')
  await close()
  assert.deepEqual(closed, ['hook'])
  assert.equal(app.server.listening, false)

  // the callback form, as `t.after(app.close)` or tap's `t.teardown(app.close)` call it
  const other = target()
  let hooks = 0
  other.addHook('onClose', (_instance: unknown, done: () => void) => { hooks++; done() })
  await other.ready()
  const closeOther = other.close as Fn
  await new Promise<void>((resolve, reject) => closeOther((err?: Error | null) => err != null ? reject(err) : resolve()))
  assert.equal(hooks, 1)
})

test('inject taken off the instance answers once the application is ready (promise and callback)', async () => {
  const app = target()
  app.get('/', async () => ({ hello: 'world' }))
  const inject = app.inject as Fn
  // trellis also answers before ready (Fastify 4.29 throws there: its inject reads `this.ready`)
  if ((process.env.ECOSYSTEM_TARGET ?? '') === '') assert.equal((await inject({ url: '/' })).statusCode, 200)
  await app.ready()
  const first = await inject({ url: '/' })
  assert.equal(first.statusCode, 200)
  assert.deepEqual(first.json(), { hello: 'world' })
  const second: any = await new Promise((resolve, reject) => inject({ url: '/' }, (err: Error | null, res: unknown) => err != null ? reject(err) : resolve(res)))
  assert.equal(second.body, '{"hello":"world"}')
  await (app.close as Fn)()
})

test('methods taken off a plugin\'s instance act on that plugin\'s context', async () => {
  const app = target()
  app.addSchema({ $id: 'outer', type: 'string' })
  const seen: Record<string, unknown> = {}
  const order: string[] = []
  app.register(async function plugin (instance: any) {
    instance.addSchema({ $id: 'inner', type: 'number' })
    const { register, after, getSchema, getSchemas, onClose } = instance as Record<string, Fn>
    seen.inner = getSchema('inner')
    seen.outer = getSchema('outer')
    seen.ids = Object.keys(getSchemas()).sort()
    register(async function child (c: any) {
      order.push('child')
      c.get('/child', async () => ({ prefix: c.prefix }))
    })
    after(function () { order.push('after child') })
    onClose(function () { order.push('plugin onClose') })
  }, { prefix: '/p' })
  app.register(async function sibling (instance: any) {
    seen.siblingInner = (instance.getSchema as Fn)('inner')
  })
  await app.ready()
  assert.deepEqual(seen.inner, { $id: 'inner', type: 'number' })
  assert.deepEqual(seen.outer, { $id: 'outer', type: 'string' })
  assert.deepEqual(seen.ids, ['inner', 'outer'])
  assert.equal(seen.siblingInner, undefined, 'a sibling does not see the plugin\'s schema')
  assert.equal((app.getSchema as Fn)('inner'), undefined, 'nor does the root')
  assert.deepEqual(order, ['child', 'after child'])
  const res = await app.inject({ url: '/p/child' })
  assert.equal(res.statusCode, 200, 'the child was registered under the plugin\'s prefix')
  assert.deepEqual(res.json(), { prefix: '/p' })
  await app.close()
  assert.deepEqual(order, ['child', 'after child', 'plugin onClose'])
})

test('route and plugin queries taken off the instance answer for the application', async () => {
  const app = target()
  app.get('/known', async () => 'k')
  app.register(async function named () {})
  const { addConstraintStrategy, hasRoute, findRoute, printRoutes, printPlugins, hasConstraintStrategy, getDefaultJsonParser } = app as unknown as Record<string, Fn>
  addConstraintStrategy({
    name: 'tenant',
    storage () { const map = new Map(); return { get: (k: string) => map.get(k), set: (k: string, v: unknown) => { map.set(k, v) } } },
    deriveConstraint: (req: { headers: Record<string, string> }) => req.headers['x-tenant'],
    mustMatchWhenDerived: false
  })
  await app.ready()
  assert.equal(hasRoute({ method: 'GET', url: '/known' }), true)
  assert.equal(hasRoute({ method: 'GET', url: '/unknown' }), false)
  assert.equal(typeof findRoute({ method: 'GET', url: '/known' }).handler, 'function')
  assert.match(printRoutes(), /known \(GET/)
  assert.match(printPlugins(), /named/)
  assert.equal(hasConstraintStrategy('tenant'), true)
  assert.equal(hasConstraintStrategy('nothing'), false)
  const parser = getDefaultJsonParser('error', 'error')
  const parsed = await new Promise((resolve, reject) => parser({}, '{"a":1}', (err: Error | null, value: unknown) => err != null ? reject(err) : resolve(value)))
  assert.deepEqual(parsed, { a: 1 })
  await app.close()
})

test('methods that need their instance in Fastify still throw a TypeError detached', async () => {
  const app = target()
  for (const name of ['decorate', 'addHook', 'get', 'route', 'setErrorHandler', 'addContentTypeParser', 'listen', 'addresses']) {
    const method = (app as unknown as Record<string, Fn>)[name]
    assert.throws(() => method('/x', async () => 'x'), TypeError, name)
  }
  await app.close()
})

test('an instance method can still be replaced on one instance', async () => {
  const app = target()
  const replaced = async (): Promise<string> => 'replaced'
  ;(app as any).inject = replaced
  assert.equal(app.inject, replaced)
  assert.equal(await (app.inject as Fn)(), 'replaced')
  const fresh = target()
  assert.notEqual(fresh.inject, replaced)
  await app.close()
  await fresh.close()
})
