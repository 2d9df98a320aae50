import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { readyOutcomeInFreshProcess } from '../helpers'
import fp from '../../src/plugin'

// ---------------------------------------------------------------- onReady

test('onReady hooks run once at ready(), with the instance as this, async and callback style', async () => {
  const app: any = trellis()
  const log: string[] = []
  let self: unknown
  app.addHook('onReady', async function (this: unknown) { self = this; log.push('async') })
  app.addHook('onReady', function (done: () => void) { setTimeout(() => { log.push('callback'); done() }, 5) })
  assert.deepEqual(log, [])
  await app.ready()
  await app.ready()
  assert.equal(self, app)
  assert.deepEqual(log, ['async', 'callback'])
})

test('onReady hooks run after every plugin loaded, parents before children, each with its context', async () => {
  const app: any = trellis()
  const log: string[] = []
  let childInstance: unknown
  app.addHook('onReady', async function () { log.push('root') })
  app.register(async (child: any) => {
    childInstance = child
    child.addHook('onReady', async function (this: unknown) { log.push(this === childInstance ? 'child (own this)' : 'child (wrong this)') })
    log.push('child loaded')
  })
  app.register(async () => { log.push('sibling loaded') })
  await app.ready()
  assert.deepEqual(log, ['child loaded', 'sibling loaded', 'root', 'child (own this)'])
})

test('decorators and routes are usable in onReady', async () => {
  const app: any = trellis()
  app.register(fp(async (i: any) => { i.decorate('db', 'connected') }))
  let seen = ''
  app.addHook('onReady', async function (this: any) { seen = this.db })
  app.get('/', async () => 'ok')
  await app.ready()
  assert.equal(seen, 'connected')
})

test('an onReady error rejects ready() and listen()', async () => {
  const app: any = trellis()
  app.addHook('onReady', async () => { throw new Error('not ready') })
  await assert.rejects(app.ready(), /not ready/)
  const cb: any = trellis()
  cb.addHook('onReady', (done: (e?: Error) => void) => { done(new Error('cb not ready')) })
  await assert.rejects(cb.listen({ port: 0, host: '127.0.0.1' }), /cb not ready/)
  assert.equal(cb.server.listening, false)
  await cb.close()
})

test('an onReady hook that never finishes fails with FST_ERR_HOOK_TIMEOUT', async () => {
  const app: any = trellis({ pluginTimeout: 30 })
  app.addHook('onReady', (_done: unknown) => {})
  await assert.rejects(app.ready(), { code: 'FST_ERR_HOOK_TIMEOUT' })
})

test('the onReady timeout error carries the loader timeout as cause (AVV_ERR_READY_TIMEOUT)', async () => {
  const app: any = trellis({ pluginTimeout: 30 })
  app.addHook('onReady', function hangs (_done: unknown) {})
  const err: any = await app.ready().catch((e: unknown) => e)
  assert.equal(err.code, 'FST_ERR_HOOK_TIMEOUT')
  assert.equal(err.cause.code, 'AVV_ERR_READY_TIMEOUT')
  assert.match(err.cause.message, /'hangs'/)
})

test('an async onReady hook with a done parameter is refused', () => {
  const app: any = trellis()
  assert.throws(() => app.addHook('onReady', async (_done: any) => {}), /Async function has too many arguments/)
})

test('onReady cannot be added once the instance is ready', async () => {
  const app: any = trellis()
  await app.ready()
  assert.throws(() => app.addHook('onReady', async () => {}))
})

// ---------------------------------------------------------------- onClose

test('onClose hooks run at close(), children first, with their instance', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.addHook('onClose', async (instance: unknown) => { log.push(instance === app ? 'root' : 'root (wrong instance)') })
  app.register(async (child: any) => {
    child.addHook('onClose', (instance: unknown, done: () => void) => { log.push(instance === child ? 'child' : 'child (wrong instance)'); done() })
    child.register(async (grandchild: any) => {
      grandchild.addHook('onClose', async () => { log.push('grandchild') })
    })
  })
  await app.ready()
  assert.deepEqual(log, [])
  await app.close()
  assert.deepEqual(log, ['grandchild', 'child', 'root'])
})

test('onClose runs after the server stopped listening; close(cb) calls back', async () => {
  const app: any = trellis()
  let listeningDuringHook: boolean | undefined
  app.addHook('onClose', async (instance: any) => { listeningDuringHook = instance.server.listening })
  await app.listen({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((resolve, reject) => app.close((err: Error | null) => err == null ? resolve() : reject(err)))
  assert.equal(listeningDuringHook, false)
  assert.equal(app.server.listening, false)
})

test('close() twice runs onClose hooks once', async () => {
  const app: any = trellis()
  let calls = 0
  app.addHook('onClose', async () => { calls++ })
  await app.ready()
  await app.close()
  await app.close()
  assert.equal(calls, 1)
})

test('ready(cb) called by plugins while the tree loads is called back, in call order, before the onReady hooks', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.register((child: any, _opts: unknown, done: () => void) => {
    child.ready((err: Error | null) => { log.push(`child ready ${String(err)}`) })
    child.addHook('onReady', async () => { log.push('child onReady') })
    child.register((grandchild: any, _o: unknown, d: () => void) => {
      grandchild.ready(() => { log.push('grandchild ready') })
      d()
    })
    done()
  })
  app.addHook('onReady', async () => { log.push('root onReady') })
  await app.ready()
  log.push('root ready resolved')
  assert.deepEqual(log, ['child ready null', 'grandchild ready', 'root onReady', 'child onReady', 'root ready resolved'])
})

test('an onReady hook may still decorate; decorating fails once the onReady hooks have run', async () => {
  const app: any = trellis()
  app.addHook('onReady', function (this: any, done: () => void) { this.decorate('fromOnReady', 1); done() })
  app.addHook('onReady', function (this: any, done: () => void) { assert.equal(this.hasDecorator('fromOnReady'), true); done() })
  await app.ready()
  assert.equal(app.fromOnReady, 1)
  assert.throws(() => app.decorate('late', 1), { code: 'FST_ERR_DEC_AFTER_START' })
})

test('close() before ready() loads the plugin tree (plugins run, their onClose hooks too) but runs no onReady hook', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.addHook('onReady', async () => { log.push('onReady') })
  app.register(async (child: any) => {
    log.push('plugin loaded')
    child.addHook('onClose', async () => { log.push('child onClose') })
  })
  await app.close()
  assert.deepEqual(log, ['plugin loaded', 'child onClose'])
})

// ---------------------------------------------------------------- onRoute

test('onRoute is called for every route with its options, and may change them', async () => {
  const app: any = trellis()
  const seen: Array<{ method: unknown; url: unknown }> = []
  app.addHook('onRoute', function (this: unknown, opts: any) {
    if (opts.method !== 'HEAD') seen.push({ method: opts.method, url: opts.url })
    if (opts.config?.protected === true) {
      opts.preHandler = async (_req: any, reply: any) => { reply.code(401).send({ denied: true }) }
    }
  })
  app.get('/open', async () => ({ open: true }))
  app.get('/closed', { config: { protected: true } }, async () => ({ open: true }))
  await app.ready()
  assert.deepEqual(seen, [{ method: 'GET', url: '/open' }, { method: 'GET', url: '/closed' }])
  assert.equal((await app.inject('/open')).statusCode, 200)
  const closed = await app.inject('/closed')
  assert.equal(closed.statusCode, 401)
  assert.deepEqual(closed.json(), { denied: true })
})

test('onRoute can change the url and the handler', async () => {
  const app: any = trellis()
  app.addHook('onRoute', (opts: any) => {
    if (opts.url === '/old') {
      opts.url = '/new'
      opts.handler = async () => 'replaced'
    }
  })
  app.get('/old', async () => 'original')
  await app.ready()
  assert.equal((await app.inject('/old')).statusCode, 404)
  assert.equal((await app.inject('/new')).body, 'replaced')
})

test('hooks an onRoute hook puts on a route are checked like the route\'s own (FST_ERR_HOOK_INVALID_HANDLER)', async () => {
  const app: any = trellis()
  app.addHook('onRoute', (opts: any) => { if (opts.url === '/bad') opts.onSend = [undefined] })
  assert.throws(() => app.get('/bad', async () => 'x'), { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'onSend hook should be a function, instead got [object Undefined]' })
  app.addHook('onRoute', (opts: any) => { if (opts.url === '/good') opts.onSend = [async (_q: unknown, _r: unknown, payload: string) => payload + '!'] })
  app.get('/good', async () => 'x')
  assert.equal((await app.inject('/good')).body, 'x!')
})

test('onRoute sees prefixed urls and is inherited by children, not seen by the parent', async () => {
  const app: any = trellis()
  const rootSeen: string[] = []
  const childSeen: string[] = []
  // (Fastify 4.3 also calls onRoute for the automatic HEAD routes; trellis does not: GET only here)
  app.addHook('onRoute', (opts: any) => { if (opts.method !== 'HEAD') rootSeen.push(opts.url) })
  app.get('/a', async () => 'a')
  app.register(async (child: any) => {
    child.addHook('onRoute', (opts: any) => { if (opts.method !== 'HEAD') childSeen.push(opts.url) })
    child.get('/b', async () => 'b')
    child.register(async (grandchild: any) => { grandchild.get('/c', async () => 'c') })
  }, { prefix: '/p' })
  app.register(async (sibling: any) => { sibling.get('/d', async () => 'd') })
  await app.ready()
  assert.deepEqual(rootSeen, ['/a', '/p/b', '/p/c', '/d'])
  assert.deepEqual(childSeen, ['/p/b', '/p/c'])
})

test('onRoute options carry method, url, path, routePath and prefix', async () => {
  const app: any = trellis()
  let seen: any
  app.register(async (child: any) => {
    child.addHook('onRoute', (opts: any) => { seen = { method: opts.method, url: opts.url, path: opts.path, routePath: opts.routePath, prefix: opts.prefix } })
    child.post('/item', async () => 'ok')
  }, { prefix: '/api' })
  await app.ready()
  assert.deepEqual(seen, { method: 'POST', url: '/api/item', path: '/api/item', routePath: '/item', prefix: '/api' })
})

test('onRoute in a wrapped plugin applies to the parent\'s later routes', async () => {
  const app: any = trellis()
  const seen: string[] = []
  app.register(fp(async (i: any) => { i.addHook('onRoute', (opts: any) => { if (opts.method !== 'HEAD') seen.push(opts.url) }) }))
  app.register(async (child: any) => { child.get('/later', async () => 'ok') })
  await app.ready()
  assert.deepEqual(seen, ['/later'])
})

test('onRoute hooks may be added after routes were declared; they only see later routes', async () => {
  const app: any = trellis()
  const seen: string[] = []
  app.get('/before', async () => 'ok')
  app.addHook('onRoute', (opts: any) => { if (opts.method !== 'HEAD') seen.push(opts.url) })
  app.get('/after', async () => 'ok')
  await app.ready()
  assert.deepEqual(seen, ['/after'])
})

// ---------------------------------------------------------------- onRegister

test('onRegister is called for each new context with the child instance and its options', async () => {
  const app: any = trellis()
  const seen: Array<{ opts: unknown; isChild: boolean }> = []
  let childInstance: unknown
  app.addHook('onRegister', (instance: any, opts: unknown) => { seen.push({ opts, isChild: Object.getPrototypeOf(instance) === app }) })
  app.register(async (child: any) => { childInstance = child }, { prefix: '/x', custom: 1 })
  await app.ready()
  assert.ok(childInstance !== undefined)
  assert.deepEqual(seen, [{ opts: { prefix: '/x', custom: 1 }, isChild: true }])
})

test('onRegister is not called for skip-override (wrapped) plugins', async () => {
  const app: any = trellis()
  let calls = 0
  app.addHook('onRegister', () => { calls++ })
  app.register(fp(async () => {}))
  app.register(async () => {})
  await app.ready()
  assert.equal(calls, 1)
})

test('onRegister is inherited: a child\'s hook runs for grandchildren, not for the child\'s siblings', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.addHook('onRegister', (i: any) => { log.push('root saw ' + String(i.pluginName)) })
  app.register(async function child (c: any) {
    c.addHook('onRegister', (i: any) => { log.push('child saw ' + String(i.pluginName)) })
    c.register(async function grandchild () {})
  })
  app.register(async function sibling () {})
  await app.ready()
  assert.deepEqual(log, ['root saw child', 'root saw grandchild', 'child saw grandchild', 'root saw sibling'])
})

test('onRegister lets a plugin prepare every new context (e.g. a per-context decorator)', async () => {
  const app: any = trellis()
  app.addHook('onRegister', (instance: any) => { instance.decorate('contextData', []) })
  const data: unknown[] = []
  app.register(async (a: any) => { a.contextData.push('a'); data.push(a.contextData) })
  app.register(async (b: any) => { b.contextData.push('b'); data.push(b.contextData) })
  await app.ready()
  assert.deepEqual(data, [['a'], ['b']])
  assert.equal(app.contextData, undefined)
})

test('an onRegister hook added after a plugin was registered (in queue order) does not see it', async () => {
  const app: any = trellis()
  const seen: string[] = []
  app.register(async function early () {})
  app.addHook('onRegister', (i: any) => { seen.push(i.pluginName) })
  app.register(async function late () {})
  await app.ready()
  assert.deepEqual(seen, ['late'])
})

test('a hung onReady hook fails ready() even when nothing else keeps the process alive', async () => {
  assert.equal(readyOutcomeInFreshProcess("app.addHook('onReady', (_done) => {})"), 'rejected FST_ERR_HOOK_TIMEOUT')
})

test('instance.onClose(fn) registers an onClose hook called with the instance at close()', async () => {
  const app = trellis()
  const seen: unknown[] = []
  app.register(async (child) => {
    child.decorate('marker', 'child')
    child.onClose((instance: any, done: () => void) => { seen.push(instance.marker); done() })
  })
  await app.ready()
  assert.deepEqual(seen, [])
  await app.close()
  assert.deepEqual(seen, ['child'])
})
