/** The spec's encapsulation rules 1-4, and what else a context encapsulates (hooks, schemas, parsers, handlers). */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import fp from '../../src/plugin'

const json = async (app: any, url: string): Promise<unknown> => (await app.inject(url)).json()

test('rule 1: a root decorator is available to routes in every context', async () => {
  const app: any = trellis()
  app.decorate('appVersion', 'v1')
  app.decorateRequest('answer', 42)
  app.decorateReply('tag', 'T')
  const route = (i: any) => async (req: any, reply: any) => ({ answer: req.answer, tag: reply.tag, version: i.appVersion })
  app.get('/root', route(app))
  app.register(async (child: any) => {
    child.get('/child', route(child))
    child.register(async (grandchild: any) => { grandchild.get('/grandchild', route(grandchild)) })
  })
  await app.ready()
  for (const url of ['/root', '/child', '/grandchild']) {
    assert.deepEqual(await json(app, url), { answer: 42, tag: 'T', version: 'v1' }, url)
  }
})

test('rule 2: a child decorator is visible in the child and grandchildren, undefined in the parent and siblings', async () => {
  const app: any = trellis()
  const route = (i: any) => async (req: any, reply: any) => ({ foo: req.foo, rep: reply.rep, inst: i.inst })
  app.get('/parent', route(app))
  app.register(async (child: any) => {
    child.decorate('inst', 'i')
    child.decorateRequest('foo', 'f')
    child.decorateReply('rep', 'r')
    child.get('/child', route(child))
    child.register(async (grandchild: any) => { grandchild.get('/grandchild', route(grandchild)) })
  })
  app.register(async (sibling: any) => {
    sibling.get('/sibling', route(sibling))
    sibling.register(async (nephew: any) => { nephew.get('/nephew', route(nephew)) })
  })
  await app.ready()
  const full = { foo: 'f', rep: 'r', inst: 'i' }
  assert.deepEqual(await json(app, '/child'), full)
  assert.deepEqual(await json(app, '/grandchild'), full)
  assert.deepEqual(await json(app, '/parent'), {})
  assert.deepEqual(await json(app, '/sibling'), {})
  assert.deepEqual(await json(app, '/nephew'), {})
  assert.equal(app.inst, undefined)
  assert.equal(app.hasRequestDecorator('foo'), false)
})

test('rule 2 also holds for decorators added to the parent after the child was registered', async () => {
  const app: any = trellis()
  app.register(async (child: any) => { child.get('/child', async (req: any) => ({ late: req.late })) })
  app.decorateRequest('late', 'from parent')
  await app.ready()
  assert.deepEqual(await json(app, '/child'), { late: 'from parent' })
})

test('rule 3: a plugin registered in a child context applies only to that context and its descendants', async () => {
  const app: any = trellis()
  // an "authentication" plugin (wrapped, like the ecosystem's): a hook that refuses requests without a header
  const auth = fp(async (i: any, opts: any) => {
    i.addHook('onRequest', async (req: any, reply: any) => {
      if (req.headers.authorization !== `Bearer ${String(opts.key)}`) reply.code(401).send({ error: 'unauthorized' })
    })
  })
  app.get('/public', async () => ({ public: true }))
  app.register(async (secured: any) => {
    secured.register(auth, { key: 'k' })
    secured.get('/secret', async () => ({ secret: true }))
    secured.register(async (deeper: any) => { deeper.get('/deeper', async () => ({ deeper: true })) })
  })
  app.register(async (sibling: any) => { sibling.get('/sibling', async () => ({ sibling: true })) })
  await app.ready()
  assert.equal((await app.inject('/secret')).statusCode, 401)
  assert.equal((await app.inject('/deeper')).statusCode, 401)
  assert.equal((await app.inject({ url: '/secret', headers: { authorization: 'Bearer k' } })).statusCode, 200)
  assert.equal((await app.inject({ url: '/deeper', headers: { authorization: 'Bearer k' } })).statusCode, 200)
  assert.equal((await app.inject('/public')).statusCode, 200)
  assert.equal((await app.inject('/sibling')).statusCode, 200)
})

test('rule 4: a wrapped descendant\'s decorators are available in the containing parent and in the descendant', async () => {
  const app: any = trellis()
  const route = async (req: any): Promise<unknown> => ({ bar: req.bar })
  app.get('/root', route)
  app.register(async (parent: any) => {
    parent.get('/parent', route)
    parent.register(fp(async (wrapped: any) => {
      wrapped.decorateRequest('bar', 'b')
      wrapped.get('/descendant', route)
    }))
  })
  await app.ready()
  assert.deepEqual(await json(app, '/parent'), { bar: 'b' })
  assert.deepEqual(await json(app, '/descendant'), { bar: 'b' })
  assert.deepEqual(await json(app, '/root'), {}, 'one level only: the root does not see it')
})

test('rule 4 chains: wrapped inside wrapped reaches up to the first encapsulated context', async () => {
  const app: any = trellis()
  app.register(async (ctx: any) => {
    ctx.register(fp(async (w1: any) => {
      w1.register(fp(async (w2: any) => { w2.decorate('deep', 'd') }))
    }))
    ctx.after(() => { assert.equal(ctx.deep, 'd') })
  })
  await app.ready()
  assert.equal(app.deep, undefined)
})

// ---------------------------------------------------------------- beyond decorators

test('hooks are encapsulated: a child\'s hooks do not run for parent or sibling routes', async () => {
  const app: any = trellis()
  const mark = (label: string) => async (_req: any, reply: any) => { reply.header('x-' + label, '1') }
  app.addHook('onRequest', mark('root'))
  app.get('/root', async () => 'r')
  app.register(async (child: any) => {
    child.addHook('onRequest', mark('child'))
    child.get('/child', async () => 'c')
  })
  app.register(async (sibling: any) => { sibling.get('/sibling', async () => 's') })
  await app.ready()
  const headers = async (url: string): Promise<string[]> => Object.keys((await app.inject(url)).headers).filter((h) => h.startsWith('x-')).sort()
  assert.deepEqual(await headers('/root'), ['x-root'])
  assert.deepEqual(await headers('/child'), ['x-child', 'x-root'])
  assert.deepEqual(await headers('/sibling'), ['x-root'])
})

test('shared schemas: root sees one; child one and two; grandchild all three', async () => {
  const app: any = trellis()
  const seen: Record<string, string[]> = {}
  app.addSchema({ $id: 'one', type: 'string' })
  app.register(async (child: any) => {
    child.addSchema({ $id: 'two', type: 'string' })
    child.register(async (grandchild: any) => {
      grandchild.addSchema({ $id: 'three', type: 'string' })
      seen.grandchild = Object.keys(grandchild.getSchemas()).sort()
      seen.grandchildGetOne = grandchild.getSchema('one')?.$id
    })
    child.after(() => { seen.child = Object.keys(child.getSchemas()).sort() })
  })
  await app.ready()
  assert.deepEqual(Object.keys(app.getSchemas()), ['one'])
  assert.equal(app.getSchema('two'), undefined)
  assert.deepEqual(seen, { grandchild: ['one', 'three', 'two'], grandchildGetOne: 'one', child: ['one', 'two'] })
})

test('content-type parsers are encapsulated', async () => {
  const app: any = trellis()
  const echo = async (req: any): Promise<unknown> => ({ body: req.body })
  app.post('/root', echo)
  app.register(async (child: any) => {
    child.addContentTypeParser('text/csv', { parseAs: 'string' }, (_r: any, body: string, done: any) => done(null, body.split(',')))
    child.post('/child', echo)
  })
  await app.ready()
  const post = (url: string): Promise<any> => app.inject({ method: 'POST', url, headers: { 'content-type': 'text/csv' }, payload: 'a,b' })
  assert.deepEqual((await post('/child')).json(), { body: ['a', 'b'] })
  assert.equal((await post('/root')).statusCode, 415)
})

test('error handlers are encapsulated', async () => {
  const app: any = trellis()
  app.get('/root', async () => { throw new Error('root failure') })
  app.register(async (child: any) => {
    child.setErrorHandler(async (err: Error, _req: any, reply: any) => { reply.code(409); return { child: err.message } })
    child.get('/child', async () => { throw new Error('child failure') })
  })
  await app.ready()
  const child = await app.inject('/child')
  assert.equal(child.statusCode, 409)
  assert.deepEqual(child.json(), { child: 'child failure' })
  const root = await app.inject('/root')
  assert.equal(root.statusCode, 500)
  assert.equal(root.json().message, 'root failure')
})

test('the instance of a route handler (this) is its context\'s instance', async () => {
  const app: any = trellis()
  let childInstance: unknown
  const seen: Record<string, boolean> = {}
  app.get('/root', async function (this: unknown) { seen.root = this === app; return 'ok' })
  app.register(async (child: any) => {
    childInstance = child
    child.get('/child', async function (this: unknown) { seen.child = this === childInstance; return 'ok' })
  })
  await app.ready()
  await app.inject('/root')
  await app.inject('/child')
  assert.deepEqual(seen, { root: true, child: true })
})
