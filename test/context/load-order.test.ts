import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import fp from '../../src/plugin'

function recorder (): { log: string[]; plugin: (name: string, body?: (i: any) => void | Promise<void>) => (i: any) => Promise<void> } {
  const log: string[] = []
  return {
    log,
    plugin: (name, body) => async (instance: any) => {
      log.push(name)
      if (body !== undefined) await body(instance)
    }
  }
}

test('plugins load in registration order, each one\'s children before the next sibling', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  app.register(plugin('A', (a) => {
    a.register(plugin('A1', (a1) => { a1.register(plugin('A1a')) }))
    a.register(plugin('A2'))
  }))
  app.register(plugin('B', (b) => { b.register(plugin('B1')) }))
  app.register(plugin('C'))
  await app.ready()
  assert.deepEqual(log, ['A', 'A1', 'A1a', 'A2', 'B', 'B1', 'C'])
})

test('a plugin body runs to its end before its children load', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  app.register(async (i: any) => {
    log.push('parent start')
    i.register(plugin('child'))
    log.push('parent end')
  })
  await app.ready()
  assert.deepEqual(log, ['parent start', 'parent end', 'child'])
})

test('root code after register() runs before the plugin loads (plugins see later root decorators)', async () => {
  const app: any = trellis()
  let seen: unknown
  app.register(async (i: any) => { seen = i.late })
  app.decorate('late', 'defined after register')
  await app.ready()
  assert.equal(seen, 'defined after register')
})

test('after() runs exactly where it was called, between siblings', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  app.register(plugin('A', (a) => { a.register(plugin('A1')) }))
  app.after(() => { log.push('after A') })
  app.register(plugin('B'))
  app.after(() => { log.push('after B') })
  await app.ready()
  assert.deepEqual(log, ['A', 'A1', 'after A', 'B', 'after B'])
})

test('after() inside a plugin runs before the plugin\'s next sibling', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  app.register(plugin('P', (p) => {
    p.register(plugin('X'))
    p.after(() => { log.push('after X') })
    p.register(plugin('Y'))
  }))
  app.register(plugin('Q'))
  await app.ready()
  assert.deepEqual(log, ['P', 'X', 'after X', 'Y', 'Q'])
})

test('plugins registered inside an after() callback load right after it', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  app.register(plugin('A'))
  app.after(() => {
    log.push('after A')
    app.register(plugin('from after'))
  })
  app.register(plugin('B'))
  await app.ready()
  assert.deepEqual(log, ['A', 'after A', 'from after', 'B'])
})

test('await app.register(p) loads p (and its children) before going on', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  await app.register(fp(plugin('p', (i) => {
    i.decorate('fromP', 1)
    i.register(plugin('p child'))
  })))
  log.push('after await')
  assert.equal(app.fromP, 1)
  app.register(plugin('q'))
  await app.ready()
  assert.deepEqual(log, ['p', 'p child', 'after await', 'q'])
})

test('await instance.register(child) inside an async plugin loads the child first', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  app.register(async (i: any) => {
    log.push('parent start')
    await i.register(fp(plugin('child', (c) => { c.decorate('util', () => 'u') })))
    log.push('parent resumes: ' + String(i.util()))
    i.register(plugin('second child'))
  })
  app.register(plugin('sibling'))
  await app.ready()
  assert.deepEqual(log, ['parent start', 'child', 'parent resumes: u', 'second child', 'sibling'])
})

test('await app.register(p) rejects with p\'s error', async () => {
  const app: any = trellis()
  await assert.rejects(async () => { await app.register(async () => { throw new Error('awaited failure') }) }, /awaited failure/)
})

test('a load error stays: later plugins at that level are skipped, after() and ready() reject with it', async () => {
  const app: any = trellis()
  const kaboom = new Error('kaboom')
  const ran: string[] = []
  await assert.rejects(async () => { await app.register(async () => { throw kaboom }) }, kaboom)
  app.register(async () => { ran.push('second') })
  await assert.rejects(app.after(), kaboom)
  app.register(async () => { ran.push('third') })
  await assert.rejects(app.ready(), kaboom)
  assert.deepEqual(ran, [])
})

test('an after((err) => ...) callback handles a load error: loading goes on', async () => {
  const app: any = trellis()
  const ran: string[] = []
  app.register(async () => { throw new Error('kaboom') })
  app.register(async () => { ran.push('skipped') })
  app.after((err: Error | null) => { ran.push(`handled ${err?.message}`) })
  app.register(async () => { ran.push('loaded') })
  await app.ready()
  assert.deepEqual(ran, ['handled kaboom', 'loaded'])
})

test('after() with no callback returns a promise that waits for what is queued', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  app.register(plugin('A'))
  await app.after()
  log.push('awaited after')
  app.register(plugin('B'))
  await app.ready()
  assert.deepEqual(log, ['A', 'awaited after', 'B'])
})

test('ready resolves after every plugin and after callback', async () => {
  const app: any = trellis()
  const { log, plugin } = recorder()
  app.register(plugin('A'))
  app.after((_err: unknown, done: () => void) => { setTimeout(() => { log.push('slow after'); done() }, 20) })
  await app.ready()
  log.push('ready')
  assert.deepEqual(log, ['A', 'slow after', 'ready'])
})

// ---------------------------------------------------------------- after arities

test('after(() => ...) with no arguments passes a previous error on', async () => {
  const app: any = trellis()
  let called = false
  app.register(async () => { throw new Error('kept') })
  app.after(() => { called = true })
  await assert.rejects(app.ready(), /kept/)
  assert.equal(called, true)
})

test('after((err) => ...) receives the error and clears it unless it throws', async () => {
  const seen: unknown[] = []
  const app: any = trellis()
  app.register(async () => { throw new Error('e1') })
  app.after((err: Error | null) => { seen.push(err?.message) })
  app.after((err: Error | null) => { seen.push(err ?? 'no error') })
  await app.ready()
  assert.deepEqual(seen, ['e1', 'no error'])

  const rethrow: any = trellis()
  rethrow.register(async () => { throw new Error('e2') })
  rethrow.after((err: Error) => { throw err })
  await assert.rejects(rethrow.ready(), /e2/)
})

test('after(async (err) => ...) that rejects fails ready()', async () => {
  const app: any = trellis()
  app.register(async () => {})
  app.after(async (_err: unknown) => { throw new Error('async after failed') })
  await assert.rejects(app.ready(), /async after failed/)
})

test('after((err, done) => ...) continues when done is called, passing what done gets', async () => {
  const app: any = trellis()
  const log: string[] = []
  app.register(async () => {})
  app.after((err: unknown, done: (e?: Error) => void) => {
    log.push(`after err=${String(err)}`)
    setTimeout(done, 10)
  })
  app.register(async () => { log.push('next') })
  await app.ready()
  assert.deepEqual(log, ['after err=null', 'next'])

  const failing: any = trellis()
  failing.after((_err: unknown, done: (e?: Error) => void) => done(new Error('from done')))
  await assert.rejects(failing.ready(), /from done/)
})

test('after((err, instance, done) => ...) receives the instance after was called on', async () => {
  const app: any = trellis()
  let got: unknown
  let inChild: unknown
  let childInstance: unknown
  app.after((_err: unknown, instance: unknown, done: () => void) => { got = instance; done() })
  app.register(async (child: any) => {
    childInstance = child
    child.after((_err: unknown, instance: unknown, done: () => void) => { inChild = instance; done() })
  })
  await app.ready()
  assert.equal(got, app)
  assert.equal(inChild, childInstance)
})

test('after refuses a non-function callback', () => {
  const app: any = trellis()
  assert.throws(() => app.after(42), { code: 'FST_ERR_PLUGIN_CALLBACK_NOT_FN' })
})

// ---------------------------------------------------------------- prefixes

test('prefixes nest, and instance.prefix tells the current one', async () => {
  const app: any = trellis()
  const prefixes: string[] = []
  app.register(async (v1: any) => {
    prefixes.push(v1.prefix)
    v1.get('/a', async () => 'v1 a')
    v1.register(async (users: any) => {
      prefixes.push(users.prefix)
      users.get('/list', async () => 'users list')
    }, { prefix: '/users' })
  }, { prefix: '/v1' })
  await app.ready()
  assert.deepEqual(prefixes, ['/v1', '/v1/users'])
  assert.equal(app.prefix, '')
  assert.equal((await app.inject('/v1/a')).body, 'v1 a')
  assert.equal((await app.inject('/v1/users/list')).body, 'users list')
  assert.equal((await app.inject('/users/list')).statusCode, 404)
})

test('a prefix without a leading slash gets one; parent trailing slash is not doubled', async () => {
  const app: any = trellis()
  app.register(async (i: any) => { i.get('/x', async () => 'x') }, { prefix: 'noslash' })
  app.register(async (i: any) => {
    i.register(async (j: any) => { j.get('/y', async () => 'y') }, { prefix: '/inner' })
  }, { prefix: '/outer/' })
  await app.ready()
  assert.equal((await app.inject('/noslash/x')).body, 'x')
  assert.equal((await app.inject('/outer/inner/y')).body, 'y')
})

test('a "/" route under a prefix answers with and without the trailing slash', async () => {
  const app: any = trellis()
  app.register(async (i: any) => { i.get('/', async () => 'root of prefix') }, { prefix: '/p' })
  await app.ready()
  assert.equal((await app.inject('/p')).body, 'root of prefix')
  assert.equal((await app.inject('/p/')).body, 'root of prefix')
})

test('prefixTrailingSlash "slash" and "no-slash" register only one form', async () => {
  const app: any = trellis()
  app.register(async (i: any) => {
    i.get('/', { prefixTrailingSlash: 'slash' }, async () => 'slash')
  }, { prefix: '/s' })
  app.register(async (i: any) => {
    i.get('/', { prefixTrailingSlash: 'no-slash' }, async () => 'no-slash')
  }, { prefix: '/n' })
  await app.ready()
  assert.equal((await app.inject('/s/')).statusCode, 200)
  assert.equal((await app.inject('/s')).statusCode, 404)
  assert.equal((await app.inject('/n')).statusCode, 200)
  assert.equal((await app.inject('/n/')).statusCode, 404)
})

test('a "" route under a prefix is the prefix itself', async () => {
  const app: any = trellis()
  app.register(async (i: any) => { i.get('', async () => 'empty') }, { prefix: '/e' })
  await app.ready()
  assert.equal((await app.inject('/e')).body, 'empty')
})

test('with ignoreTrailingSlash both forms answer', async () => {
  const app: any = trellis({ ignoreTrailingSlash: true })
  app.register(async (i: any) => {
    i.get('/', async () => 'root')
    i.get('/sub', async () => 'sub')
  }, { prefix: '/t' })
  await app.ready()
  for (const url of ['/t', '/t/', '/t/sub', '/t/sub/']) assert.equal((await app.inject(url)).statusCode, 200, url)
})

test('a wrapped plugin inside a prefixed plugin uses the prefix of its container', async () => {
  const app: any = trellis()
  app.register(async (i: any) => {
    i.register(fp(async (w: any) => { w.get('/w', async () => w.prefix) }))
  }, { prefix: '/box' })
  await app.ready()
  assert.equal((await app.inject('/box/w')).body, '/box')
})
