import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import fp from '../../src/plugin'

test('decorate adds a property to the instance; functions are called with the instance as this', async () => {
  const app: any = trellis()
  app.decorate('answer', 42)
  app.decorate('whoami', function (this: unknown) { return this })
  assert.equal(app.answer, 42)
  assert.equal(app.whoami(), app)
  assert.equal(app.decorate('other', 1), app, 'chainable')
  await app.ready()
})

test('decorateRequest and decorateReply values are on every request and reply of the context', async () => {
  const app: any = trellis()
  app.decorateRequest('user', null)
  app.decorateRequest('isAdmin', function (this: any) { return this.headers['x-admin'] === '1' })
  app.decorateReply('greet', function (this: any, name: string) { return this.send({ hello: name }) })
  app.get('/', async (req: any, reply: any) => {
    req.user = 'set by handler'
    reply.header('x-user', req.user)
    return reply.greet(req.isAdmin() ? 'admin' : 'guest')
  })
  await app.ready()
  const res = await app.inject({ url: '/', headers: { 'x-admin': '1' } })
  assert.deepEqual(res.json(), { hello: 'admin' })
  assert.equal(res.headers['x-user'], 'set by handler')
  assert.deepEqual((await app.inject('/')).json(), { hello: 'guest' })
})

test('a value set on one request does not leak into the next', async () => {
  const app: any = trellis()
  app.decorateRequest('counter', 0)
  app.get('/', async (req: any) => { req.counter++; return { counter: req.counter } })
  await app.ready()
  assert.deepEqual((await app.inject('/')).json(), { counter: 1 })
  assert.deepEqual((await app.inject('/')).json(), { counter: 1 })
})

test('hasDecorator / hasRequestDecorator / hasReplyDecorator see own and inherited decorators only', async () => {
  const app: any = trellis()
  app.decorate('rootDec', 1)
  app.decorateRequest('rootReq', 1)
  app.decorateReply('rootRep', 1)
  const inChild: Record<string, boolean> = {}
  app.register(async (child: any) => {
    child.decorate('childDec', 1)
    child.decorateRequest('childReq', 1)
    child.decorateReply('childRep', 1)
    Object.assign(inChild, {
      rootDec: child.hasDecorator('rootDec'),
      rootReq: child.hasRequestDecorator('rootReq'),
      rootRep: child.hasReplyDecorator('rootRep'),
      childDec: child.hasDecorator('childDec'),
      childReq: child.hasRequestDecorator('childReq'),
      childRep: child.hasReplyDecorator('childRep')
    })
  })
  await app.ready()
  assert.deepEqual(inChild, { rootDec: true, rootReq: true, rootRep: true, childDec: true, childReq: true, childRep: true })
  assert.equal(app.hasDecorator('childDec'), false)
  assert.equal(app.hasRequestDecorator('childReq'), false)
  assert.equal(app.hasReplyDecorator('childRep'), false)
  assert.equal(app.hasDecorator('missing'), false)
})

test('decorators may be registered with null, undefined-like and falsy values', async () => {
  const app: any = trellis()
  app.decorate('nothing', null)
  app.decorate('zero', 0)
  app.decorateRequest('empty', '')
  assert.equal(app.hasDecorator('nothing'), true)
  assert.equal(app.hasDecorator('zero'), true)
  assert.equal(app.hasRequestDecorator('empty'), true)
  await app.ready()
})

test('symbol names are supported', async () => {
  const app: any = trellis()
  const key = Symbol('private')
  app.decorate(key, 'secret')
  app.decorateRequest(key, 'r')
  app.get('/', async (req: any) => ({ v: req[key] }))
  assert.equal(app[key], 'secret')
  assert.equal(app.hasDecorator(key), true)
  await app.ready()
  assert.deepEqual((await app.inject('/')).json(), { v: 'r' })
})

// ---------------------------------------------------------------- getter / setter

test('getter/setter decorators on the instance', async () => {
  const app: any = trellis()
  let stored = 'initial'
  app.decorate('conf', { getter () { return stored }, setter (v: string) { stored = v } })
  assert.equal(app.conf, 'initial')
  app.conf = 'changed'
  assert.equal(stored, 'changed')
  assert.equal(app.conf, 'changed')
  await app.ready()
})

test('a getter decorator runs with the instance as this', async () => {
  const app: any = trellis()
  app.decorate('base', 'b')
  app.decorate('derived', { getter (this: any) { return this.base + '!' } })
  assert.equal(app.derived, 'b!')
  await app.ready()
})

test('getter decorators on request and reply run per request with it as this', async () => {
  const app: any = trellis()
  app.decorateRequest('shout', { getter (this: any) { return String(this.query.word).toUpperCase() } })
  app.decorateReply('statusText', { getter (this: any) { return 'code ' + String(this.statusCode) } })
  app.get('/', async (req: any, reply: any) => { reply.code(201); return { shout: req.shout, text: reply.statusText } })
  await app.ready()
  assert.deepEqual((await app.inject('/?word=hey')).json(), { shout: 'HEY', text: 'code 201' })
  assert.deepEqual((await app.inject('/?word=yo')).json(), { shout: 'YO', text: 'code 201' })
})

// ---------------------------------------------------------------- errors

test('a duplicate decorator in the same context fails with FST_ERR_DEC_ALREADY_PRESENT', () => {
  const app: any = trellis()
  app.decorate('dup', 1)
  app.decorateRequest('dupReq', 1)
  app.decorateReply('dupRep', 1)
  assert.throws(() => app.decorate('dup', 2), { code: 'FST_ERR_DEC_ALREADY_PRESENT', message: "The decorator 'dup' has already been added!" })
  assert.throws(() => app.decorateRequest('dupReq', 2), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  assert.throws(() => app.decorateReply('dupRep', 2), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
  assert.equal(app.dup, 1)
})

test('decorating a name of the instance API fails with FST_ERR_DEC_ALREADY_PRESENT', () => {
  const app: any = trellis()
  for (const name of ['register', 'get', 'decorate', 'log', 'server']) {
    assert.throws(() => app.decorate(name, () => {}), { code: 'FST_ERR_DEC_ALREADY_PRESENT' }, name)
  }
  assert.equal(typeof app.register, 'function')
})

test('a skip-override plugin shares its parent\'s decorators, so redefining one is a duplicate', async () => {
  const app: any = trellis()
  app.decorate('shared', 1)
  app.register(fp(async (i: any) => { i.decorate('shared', 2) }))
  await assert.rejects(app.ready(), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
})

test('a child context may override an ancestor\'s decorator; the ancestor keeps its own', async () => {
  const app: any = trellis()
  const rootFn = (): string => 'root'
  app.decorate('impl', rootFn)
  app.decorateRequest('impl', rootFn)
  app.decorateReply('impl', rootFn)
  app.get('/root', async (req: any, reply: any) => ({ i: req.impl(), r: reply.impl() }))
  let childSaw = ''
  app.register(async (child: any) => {
    const childFn = (): string => 'child'
    child.decorate('impl', childFn)
    child.decorateRequest('impl', childFn)
    child.decorateReply('impl', childFn)
    childSaw = child.impl()
    child.get('/child', async (req: any, reply: any) => ({ i: req.impl(), r: reply.impl() }))
  })
  await app.ready()
  assert.equal(childSaw, 'child')
  assert.equal(app.impl(), 'root')
  assert.deepEqual((await app.inject('/root')).json(), { i: 'root', r: 'root' })
  assert.deepEqual((await app.inject('/child')).json(), { i: 'child', r: 'child' })
})

test('decorating after start fails with FST_ERR_DEC_AFTER_START', async () => {
  const app: any = trellis()
  app.decorate('existing', 1)
  await app.ready()
  for (const method of ['decorate', 'decorateRequest', 'decorateReply']) {
    assert.throws(() => app[method]('late', true), { code: 'FST_ERR_DEC_AFTER_START', message: "The decorator 'late' has been added after start!" }, method)
  }
  // the start check comes first, even for a name that exists
  assert.throws(() => app.decorate('existing', 2), { code: 'FST_ERR_DEC_AFTER_START' })
  assert.equal(app.hasDecorator('late'), false)
})

test('decorating after listen fails too', async () => {
  const app: any = trellis()
  await app.listen({ port: 0, host: '127.0.0.1' })
  try {
    assert.throws(() => app.decorateRequest('late', 1), { code: 'FST_ERR_DEC_AFTER_START' })
  } finally {
    await app.close()
  }
})

// ---------------------------------------------------------------- dependencies

test('dependencies that exist are accepted', async () => {
  const app: any = trellis()
  app.decorate('db', {})
  app.decorate('users', {}, ['db'])
  app.decorateRequest('session', null)
  app.decorateRequest('user', null, ['session'])
  app.decorateReply('view', () => {})
  app.decorateReply('render', () => {}, ['view'])
  assert.equal(app.hasDecorator('users'), true)
  await app.ready()
})

test('a missing dependency fails with FST_ERR_DEC_MISSING_DEPENDENCY naming it', () => {
  const app: any = trellis()
  assert.throws(() => app.decorate('users', {}, ['db']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY', message: /'db'/ })
  assert.throws(() => app.decorateRequest('user', null, ['session']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY', message: /'session'/ })
  assert.throws(() => app.decorateReply('render', null, ['view']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY', message: /'view'/ })
  assert.equal(app.hasDecorator('users'), false)
})

test('a request dependency is looked up among request decorators, not instance ones', () => {
  const app: any = trellis()
  app.decorate('session', {})
  assert.throws(() => app.decorateRequest('user', null, ['session']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY' })
})

test('dependencies must be an array', () => {
  const app: any = trellis()
  app.decorate('db', 1)
  assert.throws(() => app.decorate('users', {}, 'db'), { code: 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE', message: /'users'/ })
  assert.throws(() => app.decorateRequest('u', {}, 'db'), { code: 'FST_ERR_DEC_DEPENDENCY_INVALID_TYPE' })
})

test('a dependency inherited from an ancestor context is found', async () => {
  const app: any = trellis()
  app.decorate('db', 1)
  app.decorateRequest('session', null)
  app.register(async (child: any) => {
    child.register(async (grandchild: any) => {
      grandchild.decorate('users', 2, ['db'])
      grandchild.decorateRequest('user', null, ['session'])
    })
  })
  await app.ready()
})

test('a dependency defined in a sibling context: the error names where it was looked for and where it is defined', async () => {
  const app: any = trellis()
  app.register(async function database (i: any) { i.decorate('db', {}) })
  app.register(async function users (i: any) {
    i.register(async function admin (j: any) { j.decorate('adminRepo', {}, ['db']) })
  })
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_DEC_MISSING_DEPENDENCY')
    assert.match(err.message, /'db'/)
    assert.match(err.message, /not visible in root -> users -> admin/)
    assert.match(err.message, /defined in root -> database/)
    return true
  })
})

test('a request dependency defined in a child context: the error names the child chain', async () => {
  const app: any = trellis()
  app.register(async function auth (i: any) { i.decorateRequest('session', null) })
  app.after(() => {
    assert.throws(() => app.decorateRequest('user', null, ['session']), (err: any) =>
      err.code === 'FST_ERR_DEC_MISSING_DEPENDENCY' && /not visible in root\b/.test(err.message) && /defined in root -> auth/.test(err.message))
  })
  await app.ready()
})

test('a dependency defined nowhere gets the plain message', () => {
  const app: any = trellis()
  assert.throws(() => app.decorate('x', 1, ['nowhere']), (err: any) => err.message === "The decorator is missing dependency 'nowhere'.")
})

// ---------------------------------------------------------------- where decorators are visible

test('decorators from a wrapped plugin registered before are usable in after() and later plugins', async () => {
  const app: any = trellis()
  app.register(fp(async (i: any) => { i.decorate('util', () => 'u') }))
  let inAfter = ''
  let inLater = ''
  app.after(() => { inAfter = app.util() })
  app.register(async (i: any) => { inLater = i.util() })
  await app.ready()
  assert.equal(inAfter, 'u')
  assert.equal(inLater, 'u')
})

test('decorators are separate between two root instances', async () => {
  const a: any = trellis()
  const b: any = trellis()
  a.decorate('only', 'a')
  a.decorateRequest('onlyReq', 'a')
  b.get('/', async (req: any) => ({ v: req.onlyReq ?? 'none' }))
  assert.equal(b.hasDecorator('only'), false)
  assert.equal(b.hasRequestDecorator('onlyReq'), false)
  await Promise.all([a.ready(), b.ready()])
  assert.deepEqual((await b.inject('/')).json(), { v: 'none' })
})
