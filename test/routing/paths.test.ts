import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('named params, several per segment list', async () => {
  const app = trellis()
  app.get('/users/:userId/books/:bookId', async (req) => req.params)
  app.get('/range/:from-:to', async (req) => req.params)
  assert.deepEqual((await app.inject('/users/12/books/ab')).json(), { userId: '12', bookId: 'ab' })
  assert.deepEqual((await app.inject('/range/3-9')).json(), { from: '3', to: '9' })
  await app.close()
})

test('params are URL-decoded', async () => {
  const app = trellis()
  app.get('/name/:name', async (req) => req.params)
  assert.deepEqual((await app.inject('/name/J%C3%BCrgen%20B')).json(), { name: 'Jürgen B' })
  await app.close()
})

test('wildcard routes capture the rest of the path in params["*"]', async () => {
  const app = trellis()
  app.get('/static/*', async (req) => req.params)
  assert.deepEqual((await app.inject('/static/css/site.css')).json(), { '*': 'css/site.css' })
  assert.deepEqual((await app.inject('/static/')).json(), { '*': '' })
  await app.close()
})

test('static routes win over params, params over wildcards', async () => {
  const app = trellis()
  app.get('/a/static', async () => 'static')
  app.get('/a/:p', async () => 'param')
  app.get('/a/*', async () => 'wild')
  assert.equal((await app.inject('/a/static')).body, 'static')
  assert.equal((await app.inject('/a/other')).body, 'param')
  assert.equal((await app.inject('/a/b/c')).body, 'wild')
  await app.close()
})

test('regexp params match only what the pattern allows', async () => {
  const app = trellis()
  app.get('/n/:id(^\\d+$)', async (req) => req.params)
  app.get('/file/:name(^\\w+).png', async (req) => req.params)
  assert.deepEqual((await app.inject('/n/123')).json(), { id: '123' })
  assert.equal((await app.inject('/n/abc')).statusCode, 404)
  assert.deepEqual((await app.inject('/file/logo.png')).json(), { name: 'logo' })
  await app.close()
})

test('unsafe regexp params are refused unless allowUnsafeRegex', () => {
  const app = trellis()
  assert.throws(() => app.get('/u/:id(^([0-9]+){4}$)', async () => 'x'))
  const loose = trellis({ allowUnsafeRegex: true })
  loose.get('/u/:id(^([0-9]+){4}$)', async () => 'x')
})

test('optional last param', async () => {
  const app = trellis()
  app.get('/opt/:id?', async (req) => ({ id: (req.params as any).id ?? null }))
  assert.deepEqual((await app.inject('/opt/5')).json(), { id: '5' })
  assert.deepEqual((await app.inject('/opt')).json(), { id: null })
  await app.close()
})

test('prefix: routes of a plugin get its prefix; nested prefixes concatenate', async () => {
  const app = trellis()
  app.register(async (v1) => {
    v1.get('/users', async (req) => req.routerPath)
    v1.register(async (admin) => {
      admin.get('/stats', async (req) => req.routerPath)
    }, { prefix: '/admin' })
  }, { prefix: '/v1' })
  assert.equal((await app.inject('/v1/users')).body, '/v1/users')
  assert.equal((await app.inject('/v1/admin/stats')).body, '/v1/admin/stats')
  assert.equal((await app.inject('/users')).statusCode, 404)
  await app.close()
})

test('prefix without a leading slash, and a trailing slash in the prefix', async () => {
  const app = trellis()
  app.register(async (p) => { p.get('/a', async () => 'a') }, { prefix: 'noslash' })
  app.register(async (p) => { p.get('/b', async () => 'b') }, { prefix: '/trail/' })
  assert.equal((await app.inject('/noslash/a')).body, 'a')
  assert.equal((await app.inject('/trail/b')).body, 'b')
  await app.close()
})

test('route "/" under a prefix answers both /prefix and /prefix/ (prefixTrailingSlash: both)', async () => {
  const app = trellis()
  app.register(async (p) => {
    p.get('/', async () => 'root')
    p.get('/only-slash', async () => 'x')
  }, { prefix: '/api' })
  app.register(async (p) => { p.get('/', { prefixTrailingSlash: 'no-slash' }, async () => 'ns') }, { prefix: '/ns' })
  app.register(async (p) => { p.get('/', { prefixTrailingSlash: 'slash' }, async () => 's') }, { prefix: '/s' })
  assert.equal((await app.inject('/api')).body, 'root')
  assert.equal((await app.inject('/api/')).body, 'root')
  assert.equal((await app.inject('/ns')).body, 'ns')
  assert.equal((await app.inject('/ns/')).statusCode, 404)
  assert.equal((await app.inject('/s/')).body, 's')
  assert.equal((await app.inject('/s')).statusCode, 404)
  await app.close()
})

test('route "/" under a prefix ending in "/" answers /prefix/ only, with or without ignoreDuplicateSlashes', async () => {
  for (const ignoreDuplicateSlashes of [false, true]) {
    const app = trellis({ ignoreDuplicateSlashes })
    app.register(async (p) => { p.get('/', async () => 'root') }, { prefix: '/prefix/' })
    await app.ready()
    assert.equal((await app.inject('/prefix/')).body, 'root', `ignoreDuplicateSlashes ${ignoreDuplicateSlashes}`)
    if (!ignoreDuplicateSlashes) assert.equal((await app.inject('/prefix')).statusCode, 404)
    await app.close()
  }
})

test('ignoreDuplicateSlashes collapses //', async () => {
  const app = trellis({ ignoreDuplicateSlashes: true })
  app.get('/a/b', async () => 'ab')
  assert.equal((await app.inject('//a//b')).body, 'ab')
  await app.close()
})
