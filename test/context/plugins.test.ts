import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { readyOutcomeInFreshProcess } from '../helpers'
import fp from '../../src/plugin'

const kSkip = Symbol.for('skip-override')
const kDisplay = Symbol.for('fastify.display-name')
const kMeta = Symbol.for('plugin-meta')

async function getJson (app: any, url: string): Promise<{ status: number; body: any }> {
  const res = await app.inject({ method: 'GET', url })
  let body: any = res.body
  try { body = JSON.parse(res.body) } catch {}
  return { status: res.statusCode, body }
}

// ---------------------------------------------------------------- plugin forms

test('an async plugin gets a child instance, its options, and its routes are served', async () => {
  const app: any = trellis()
  let seen: any
  app.register(async (instance: any, opts: any) => {
    seen = { opts, isRoot: instance === app, inherits: Object.getPrototypeOf(instance) === app }
    instance.get('/a', async () => ({ ok: opts.ok }))
  }, { ok: 1 })
  await app.ready()
  assert.deepEqual(seen, { opts: { ok: 1 }, isRoot: false, inherits: true })
  assert.deepEqual(await getJson(app, '/a'), { status: 200, body: { ok: 1 } })
})

test('a callback plugin finishes when it calls done, and what it registers loads after it', async () => {
  const app: any = trellis()
  const order: string[] = []
  app.register((instance: any, _opts: any, done: (err?: Error) => void) => {
    order.push('plugin start')
    instance.register(async () => { order.push('nested') })
    setTimeout(() => { order.push('plugin done'); done() }, 10)
  })
  await app.ready()
  assert.deepEqual(order, ['plugin start', 'plugin done', 'nested'])
})

test('plugin options default to an empty object', async () => {
  const app: any = trellis()
  let seen: unknown
  app.register(async (_i: any, opts: unknown) => { seen = opts })
  await app.ready()
  assert.deepEqual(seen, {})
})

test('options given as a function are called with the parent instance', async () => {
  const app: any = trellis()
  app.decorate('config', { secret: 's3' })
  let seen: any
  let calledWith: any
  app.register(async (_i: any, opts: any) => { seen = opts }, (parent: any) => { calledWith = parent; return { secret: parent.config.secret } })
  await app.ready()
  // trellis passes the parent itself; Fastify 4.3 passes the plugin's copy of it: both carry the parent's state
  assert.ok(calledWith === app || Object.getPrototypeOf(calledWith) === app)
  assert.deepEqual(seen, { secret: 's3' })
})

test('options as a function see decorators added by an earlier (wrapped) sibling', async () => {
  const app: any = trellis()
  app.register(fp(async (i: any) => { i.decorate('dbUrl', 'pg://x') }))
  let seen: any
  app.register(async (_i: any, opts: any) => { seen = opts }, (parent: any) => ({ url: parent.dbUrl }))
  await app.ready()
  assert.deepEqual(seen, { url: 'pg://x' })
})

test('a promise of an ES module (dynamic import) registers its default export', async () => {
  const app: any = trellis()
  app.register(import('./fixtures/esm-plugin.mjs'), { prefix: '/m', value: 'v' })
  await app.ready()
  assert.deepEqual(await getJson(app, '/m/esm'), { status: 200, body: { fromEsm: 'v', prefix: '/m' } })
  assert.equal(app.fromEsm, undefined, 'the module plugin is encapsulated')
})

test('an ES module with a callback-style default export', async () => {
  const app: any = trellis()
  app.register(import('./fixtures/esm-callback-plugin.mjs'), { x: 1 })
  await app.ready()
  assert.deepEqual(await getJson(app, '/esm-cb'), { status: 200, body: { ok: true, opts: { x: 1 } } })
})

test('an ES module exporting a wrapped plugin breaks encapsulation', async () => {
  const app: any = trellis()
  app.register(import('./fixtures/esm-wrapped-plugin.mjs'))
  await app.ready()
  assert.equal(app.esmWrapped, true)
})

test('an already imported module namespace (object with default) is accepted', async () => {
  const mod = await import('./fixtures/esm-plugin.mjs')
  const app: any = trellis()
  app.register(mod)
  await app.ready()
  assert.deepEqual(await getJson(app, '/esm'), { status: 200, body: { fromEsm: 'esm', prefix: '' } })
})

test('register refuses what is not a plugin', () => {
  const app: any = trellis()
  for (const bad of [42, 'str', null, undefined, {}]) {
    assert.throws(() => app.register(bad), { code: 'FST_ERR_PLUGIN_NOT_VALID' }, String(bad))
  }
})

test('register is chainable', async () => {
  const app: any = trellis()
  const r = app.register(async () => {})
  assert.equal(r, app)
  await app.ready()
})

// ---------------------------------------------------------------- ready

test('ready() resolves with the instance and loads plugins once, however often it is called', async () => {
  const app: any = trellis()
  let loads = 0
  app.register(async () => { loads++ })
  const [a, b] = await Promise.all([app.ready(), app.ready()])
  assert.equal(a, app)
  assert.equal(b, app)
  await app.ready()
  assert.equal(loads, 1)
})

test('ready(cb) calls back without an error and with the instance', async () => {
  const app: any = trellis()
  app.register(async (i: any) => { i.decorate('x', 1) })
  const args = await new Promise<unknown[]>((resolve) => {
    const ret = app.ready((...a: unknown[]) => resolve(a))
    assert.equal(ret, undefined)
  })
  assert.equal(args[0] ?? null, null)
  assert.equal(args[1], app)
})

test('ready(cb) gets the plugin error', async () => {
  const app: any = trellis()
  const boom = new Error('boom')
  app.register(async () => { throw boom })
  const err = await new Promise((resolve) => app.ready(resolve))
  assert.equal(err, boom)
})

// ---------------------------------------------------------------- errors

test('an async plugin that throws rejects ready() with its own error', async () => {
  const app: any = trellis()
  const boom = new Error('kaboom')
  app.register(async function failing () { throw boom })
  await assert.rejects(app.ready(), (err: unknown) => err === boom)
})

test('a callback plugin that calls done(err) rejects ready() with that error', async () => {
  const app: any = trellis()
  app.register((_i: any, _o: any, done: (e?: Error) => void) => { done(new Error('cb failure')) })
  await assert.rejects(app.ready(), /cb failure/)
})

test('a plugin that throws synchronously rejects ready()', async () => {
  const app: any = trellis()
  app.register((_i: any, _o: any, _done: unknown) => { throw new Error('sync throw') })
  await assert.rejects(app.ready(), /sync throw/)
})

test('a failing nested plugin rejects listen(), and the server does not listen', async () => {
  const app: any = trellis()
  app.register(async (i: any) => {
    i.register(async function deep () { throw new Error('deep failure') })
  })
  await assert.rejects(app.listen({ port: 0, host: '127.0.0.1' }), /deep failure/)
  assert.equal(app.server.listening, false)
  await app.close()
})

test('plugins registered after a failing one are not loaded', async () => {
  const app: any = trellis()
  let loaded = false
  app.register(async () => { throw new Error('first') })
  app.register(async () => { loaded = true })
  await assert.rejects(app.ready(), /first/)
  assert.equal(loaded, false)
})

test('an after(err) handler sees a plugin error and can recover from it', async () => {
  const app: any = trellis()
  let seen: unknown
  let laterLoaded = false
  app.register(async () => { throw new Error('recoverable') })
  app.after((err: Error) => { seen = err })
  app.register(async () => { laterLoaded = true })
  await app.ready()
  assert.match((seen as Error).message, /recoverable/)
  assert.equal(laterLoaded, true)
})

test('a plugin that never calls done fails after pluginTimeout with FST_ERR_PLUGIN_TIMEOUT naming it', async () => {
  const app: any = trellis({ pluginTimeout: 30 })
  app.register(function neverDone (_i: any, _o: any, _done: unknown) {})
  const start = Date.now()
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_TIMEOUT')
    assert.match(err.message, /neverDone/)
    return true
  })
  assert.ok(Date.now() - start >= 25)
})

test('the plugin timeout error keeps the loader timeout as cause (AVV_ERR_PLUGIN_EXEC_TIMEOUT, as Fastify 4.29)', async () => {
  const app: any = trellis({ pluginTimeout: 20 })
  app.register(function stuck (_i: any, _o: any, _done: unknown) {})
  const err: any = await app.ready().catch((e: unknown) => e)
  assert.equal(err.code, 'FST_ERR_PLUGIN_TIMEOUT')
  assert.equal(err.cause.code, 'AVV_ERR_PLUGIN_EXEC_TIMEOUT')
  assert.match(err.cause.message, /'stuck'/)
})

test('options given as a function run with the plugin\'s own instance: what they add is the plugin\'s, not its siblings\'', async () => {
  const app: any = trellis()
  let child: any
  let optsInstance: any
  const seen: unknown[] = []
  app.register((i: any, _o: any, done: () => void) => { child = i; seen.push(i.local); done() }, (p: any) => { optsInstance = p; p.decorate('local', 'mine'); return {} })
  app.register((i: any, _o: any, done: () => void) => { seen.push(i.local); done() })
  // a wrapped plugin's options function gets the parent, like the plugin itself
  app.register(fp((i: any, _o: any, done: () => void) => { done() }), (p: any) => { p.decorate('shared', true); return {} })
  await app.ready()
  assert.equal(optsInstance, child)
  assert.deepEqual(seen, ['mine', undefined])
  assert.equal(app.local, undefined)
  assert.equal(app.shared, true)
})

test('the timeout error names a plugin by its display name', async () => {
  const app: any = trellis({ pluginTimeout: 20 })
  const plugin: any = (_i: any, _o: any, _done: unknown) => {}
  plugin[kDisplay] = 'my-slow-plugin'
  app.register(plugin)
  await assert.rejects(app.ready(), (err: any) => err.code === 'FST_ERR_PLUGIN_TIMEOUT' && /my-slow-plugin/.test(err.message))
})

test('an async plugin that never resolves also times out', async () => {
  const app: any = trellis({ pluginTimeout: 20 })
  app.register(async function hangs () { await new Promise(() => {}) })
  await assert.rejects(app.ready(), (err: any) => err.code === 'FST_ERR_PLUGIN_TIMEOUT' && /hangs/.test(err.message))
})

test('pluginTimeout: 0 disables the timeout', async () => {
  const app: any = trellis({ pluginTimeout: 0 })
  app.register((_i: any, _o: any, done: () => void) => { setTimeout(done, 40) })
  await app.ready()
})

// ---------------------------------------------------------------- symbols

test('Symbol.for("skip-override") runs the plugin in the parent context', async () => {
  const app: any = trellis()
  const plugin: any = async (instance: any) => {
    assert.equal(instance, app)
    instance.decorate('shared', 'yes')
    instance.decorateRequest('sharedReq', 'r')
  }
  plugin[kSkip] = true
  app.register(plugin)
  app.get('/', async (req: any) => ({ r: req.sharedReq }))
  await app.ready()
  assert.equal(app.shared, 'yes')
  assert.deepEqual((await getJson(app, '/')).body, { r: 'r' })
})

test('skip-override plugins ignore the prefix option', async () => {
  const app: any = trellis()
  const plugin: any = async (instance: any) => { instance.get('/p', async () => 'p') }
  plugin[kSkip] = true
  app.register(plugin, { prefix: '/ignored' })
  await app.ready()
  assert.equal((await getJson(app, '/p')).status, 200)
  assert.equal((await getJson(app, '/ignored/p')).status, 404)
})

test('Symbol.for("fastify.display-name") names the child context', async () => {
  const app: any = trellis()
  const plugin: any = async (instance: any) => { name = instance.pluginName }
  plugin[kDisplay] = 'shown-name'
  let name = ''
  app.register(plugin)
  await app.ready()
  assert.equal(name, 'shown-name')
  assert.match(app.printPlugins(), /shown-name/)
})

test('plugin-meta with fastify "4.x" is accepted', async () => {
  const app: any = trellis()
  let loaded = false
  const plugin: any = async () => { loaded = true }
  plugin[kMeta] = { name: 'ok-plugin', fastify: '4.x' }
  app.register(plugin)
  await app.ready()
  assert.equal(loaded, true)
})

test('plugin-meta with fastify "5.x" is refused with FST_ERR_PLUGIN_VERSION_MISMATCH', async () => {
  const app: any = trellis()
  let loaded = false
  const plugin: any = async () => { loaded = true }
  plugin[kMeta] = { name: 'future-plugin', fastify: '5.x' }
  app.register(plugin)
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_VERSION_MISMATCH')
    assert.match(err.message, /future-plugin/)
    assert.match(err.message, /5\.x/)
    assert.match(err.message, /4\.29\.1/)
    return true
  })
  assert.equal(loaded, false)
})

test('other fastify ranges: ">=4.0.0", "^4.16.0" and "4.29.x" accepted; "3.x", "4.3.x" and ">=4.30.0" refused', async () => {
  for (const [range, ok] of [['>=4.0.0', true], ['^4.1.0', true], ['^4.16.0', true], ['4.29.x', true], ['4.3.x', false], ['3.x', false], ['>=4.30.0', false]] as const) {
    const app: any = trellis()
    app.register(fp(async () => {}, { fastify: range, name: 'p' }))
    if (ok) await app.ready()
    else await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_VERSION_MISMATCH' }, range)
  }
})

test('the version check uses the instance version; a release candidate loads plugins for earlier releases', async () => {
  for (const [range, ok] of [['99.x', true], ['^98.1.0', true], ['98.x', true], ['100.x', false]] as const) {
    const app: any = trellis()
    Object.defineProperty(app, 'version', { value: '99.0.0-rc.1' })
    app.register(fp(async () => {}, { fastify: range, name: 'p' }))
    if (ok) await app.ready()
    else await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_VERSION_MISMATCH', message: /99\.0\.0-rc\.1/ }, range)
  }
})

test('plugin-meta dependencies must be registered before the plugin', async () => {
  const app: any = trellis()
  const dependent: any = async () => {}
  dependent[kMeta] = { name: 'dependent', dependencies: ['database'] }
  app.register(dependent)
  await assert.rejects(app.ready(), (err: any) => err.message === "The dependency 'database' of plugin 'dependent' is not registered" && err.code === 'ERR_ASSERTION')

  const ok: any = trellis()
  ok.register(fp(async () => {}, { name: 'database' }))
  ok.register(fp(async () => {}, { name: 'dependent', dependencies: ['database'] }))
  await ok.ready()
})

test('a dependency registered in a sibling context does not count', async () => {
  const app: any = trellis()
  app.register(async (i: any) => { i.register(fp(async () => {}, { name: 'database' })) })
  app.register(async (i: any) => { i.register(fp(async () => {}, { name: 'dependent', dependencies: ['database'] })) })
  await assert.rejects(app.ready(), /database/)
})

test('plugin-meta decorators must exist on the instance, request or reply', async () => {
  const cases: Array<[string, (app: any) => void]> = [
    ['fastify', (app) => app.decorate('db', 1)],
    ['request', (app) => app.decorateRequest('user', null)],
    ['reply', (app) => app.decorateReply('view', null)]
  ]
  for (const [kind, define] of cases) {
    const name = kind === 'fastify' ? 'db' : kind === 'request' ? 'user' : 'view'
    const missing: any = trellis()
    missing.register(fp(async () => {}, { name: 'needs-' + name, decorators: { [kind]: [name] } }))
    await assert.rejects(missing.ready(), (err: any) => {
      assert.match(err.message, new RegExp(`^The decorator '${name}' required by 'needs-${name}' is not present in (Fastify|Request|Reply)$`))
      // Fastify 4.29's code for it
      assert.equal(err.code, 'FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE')
      return true
    })

    const present: any = trellis()
    define(present)
    present.register(fp(async () => {}, { name: 'needs-' + name, decorators: { [kind]: [name] } }))
    await present.ready()
  }
})

// ---------------------------------------------------------------- printPlugins / pluginName

test('pluginName is the plugin function name in a child, and the root has its own name', async () => {
  const app: any = trellis()
  const names: string[] = []
  app.register(async function alpha (i: any) {
    names.push(i.pluginName)
    i.register(async function beta (j: any) { names.push(j.pluginName) })
  })
  await app.ready()
  assert.deepEqual(names, ['alpha', 'beta'])
  assert.equal(app.pluginName, 'fastify')
})

test('wrapped plugins append their names to the pluginName chain of the context they load into', async () => {
  const app: any = trellis()
  let inner = ''
  let childName = ''
  app.register(fp(async (i: any) => { inner = i.pluginName }, { name: 'plugin-A' }))
  app.register(fp(async () => {}, { name: 'plugin-B' }))
  app.register(async function child (c: any) {
    c.register(fp(async () => {}, { name: 'plugin-C' }))
    c.after(() => { childName = c.pluginName })
  })
  await app.ready()
  assert.equal(inner, 'fastify -> plugin-A')
  assert.equal(app.pluginName, 'fastify -> plugin-A -> plugin-B')
  assert.equal(childName, 'child -> plugin-C')
})

test('hasPlugin tells whether a named (wrapped) plugin was loaded into this context', async () => {
  const app: any = trellis()
  let beforeLoad = true
  let childSees: unknown
  app.register(fp(async () => {}, { name: 'cookie' }))
  beforeLoad = app.hasPlugin('cookie')
  app.register(async (c: any) => { childSees = c.hasPlugin('cookie') })
  await app.ready()
  assert.equal(beforeLoad, false)
  assert.equal(app.hasPlugin('cookie'), true)
  assert.equal(app.hasPlugin('nope'), false)
  // Fastify 4.29: a plugin registered by name (metadata) is also seen from the contexts below
  assert.equal(childSees, true)
})

test('hasPlugin: plain functions are known only in the context they run in (name chain); named plugins also below', async () => {
  const app: any = trellis()
  const seen: Record<string, boolean[]> = {}
  app.register(async function outer (o: any) {
    o.register(fp(async () => {}, { name: 'named-inner' }))
    o.register(async function inner (i: any) {
      seen.inner = [i.hasPlugin('outer'), i.hasPlugin('inner'), i.hasPlugin('named-inner')]
    })
  })
  app.register(async function sibling (s: any) { seen.sibling = [s.hasPlugin('outer'), s.hasPlugin('named-inner')] })
  await app.ready()
  assert.deepEqual(seen.inner, [false, true, true])
  assert.deepEqual(seen.sibling, [false, false])
  assert.equal(app.hasPlugin('named-inner'), false)
})

test('printPlugins shows the tree of loaded plugins in load order', async () => {
  const app: any = trellis()
  app.register(async function first (i: any) { i.register(async function firstChild () {}) })
  app.register(async function second () {})
  await app.ready()
  const out: string = app.printPlugins()
  const lines = out.split('\n').filter(Boolean)
  const at = (name: string): number => lines.findIndex((l) => l.includes(name))
  assert.ok(at('first') > 0 && at('firstChild') > at('first') && at('second') > at('firstChild'), out)
  const indent = (name: string): number => lines[at(name)].search(/[A-Za-z]/)
  assert.ok(indent('firstChild') > indent('first'), out)
  assert.equal(indent('second'), indent('first'), out)
})

test('a hung plugin fails ready() even when nothing else keeps the process alive', async () => {
  assert.equal(readyOutcomeInFreshProcess('app.register((_i, _o, _done) => {})'), 'rejected FST_ERR_PLUGIN_TIMEOUT')
})
