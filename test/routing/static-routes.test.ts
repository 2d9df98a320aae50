import { test } from 'node:test'
import assert from 'node:assert/strict'
import FindMyWay from 'find-my-way'
import trellis from '../../src/index'

// Static routes are answered from a table before find-my-way (src/routing/static-routes.ts); these
// check that every request still reaches the route find-my-way would choose, with the same params/query.

test('a static route gets an empty params object and the parsed querystring', async () => {
  const app = trellis()
  app.get('/hello', async (req) => ({ params: req.params, keys: Object.keys(req.params as object).length, query: req.query }))
  const res = await app.inject('/hello?a=1&b=x&a=2')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { params: {}, keys: 0, query: { a: ['1', '2'], b: 'x' } })
  assert.deepEqual((await app.inject('/hello')).json().query, {})
  await app.close()
})

test('without a querystring, request.query is a new empty object without prototype (querystring.parse\'s result), on both paths', async () => {
  const app = trellis({ ignoreTrailingSlash: true })
  const seen: unknown[] = []
  app.get('/plain', async (req) => { seen.push(req.query); return { proto: Object.getPrototypeOf(req.query) === null, keys: Object.keys(req.query as object) } })
  for (const url of ['/plain', '/plain/', '/plain']) {
    assert.deepEqual((await app.inject(url)).json(), { proto: true, keys: [] }, url)
  }
  assert.equal(seen.length, 3)
  assert.notEqual(seen[0], seen[2])
  await app.close()
})

test('URLs the table does not hold exactly still reach the route through find-my-way', async () => {
  const app = trellis({ ignoreTrailingSlash: true, caseSensitive: false, ignoreDuplicateSlashes: true })
  app.get('/hello/world', async () => 'hi')
  for (const url of ['/hello/world', '/hello/world/', '/HELLO/World', '/hello%2Fworld'.replace('%2F', '/'), '/h%65llo/world', '//hello//world', '/hello/world?x=1']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 200, url)
    assert.equal(res.body, 'hi', url)
  }
  assert.equal((await app.inject('/hello/worlds')).statusCode, 404)
  await app.close()
})

test('a custom querystringParser is used on the fast path too', async () => {
  const app = trellis({ querystringParser: (q: string) => ({ raw: q }) })
  app.get('/q', async (req) => req.query)
  assert.deepEqual((await app.inject('/q?x=1')).json(), { raw: 'x=1' })
  assert.deepEqual((await app.inject('/q')).json(), { raw: '' })
  await app.close()
})

test('with constraints in use, static routes answer exactly as find-my-way decides', async () => {
  const app = trellis()
  app.get('/plain', async () => 'plain')
  app.get('/v', { constraints: { version: '1.2.0' } }, async () => 'v1')
  // find-my-way itself, same routes: the reference
  const fmw = FindMyWay()
  fmw.on('GET', '/plain', () => {})
  fmw.on('GET', '/v', { constraints: { version: '1.2.0' } }, () => {})
  for (const version of [undefined, '1.x', '2.0.0']) {
    const expected = fmw.find('GET', '/plain', version === undefined ? {} : { version }) === null ? 404 : 200
    const res = await app.inject({ url: '/plain', headers: version === undefined ? {} : { 'accept-version': version } })
    assert.equal(res.statusCode, expected, `accept-version ${String(version)}`)
  }
  assert.equal((await app.inject({ url: '/v', headers: { 'accept-version': '1.x' } })).body, 'v1')
  await app.close()
})

test('an explicit HEAD route replaces the automatic one on the fast path', async () => {
  const app = trellis()
  app.get('/page', async (_req, reply) => { reply.header('x-from', 'get'); return 'body' })
  app.head('/page', async (_req, reply) => { reply.header('x-from', 'head'); return '' })
  const res = await app.inject({ method: 'HEAD', url: '/page' })
  assert.equal(res.headers['x-from'], 'head')
  await app.close()
})

test('static paths sharing one length each reach their own route, past the point where the table switches to a map', async () => {
  const app = trellis()
  // 20 paths of one length (the table compares up to 8 one by one, then keys them), 3 of another, and one alone
  const paths = [...Array.from({ length: 20 }, (_, i) => `/item-${String(i).padStart(2, '0')}`), '/x-1', '/x-2', '/x-3']
  for (const path of paths) app.get(path, async () => ({ path }))
  app.get('/a', async () => ({ path: '/a' }))
  app.post('/item-00', async () => ({ posted: true }))
  for (const path of [...paths, '/a']) {
    const res = await app.inject(path + '?x=1')
    assert.equal(res.statusCode, 200, path)
    assert.deepEqual(res.json(), { path }, path)
  }
  assert.deepEqual((await app.inject({ method: 'POST', url: '/item-00' })).json(), { posted: true })
  // same length, no such route; a length between two known ones; longer than any
  for (const url of ['/item-20', '/item-0x', '/x-4', '/ab', '/item-000']) assert.equal((await app.inject(url)).statusCode, 404, url)
  await app.close()
})

test('an explicit HEAD route replaces the automatic one among many paths of its length too', async () => {
  const app = trellis()
  for (let i = 0; i < 12; i++) app.get(`/page${i}`.padEnd(9, 'x'), async (_req, reply) => { reply.header('x-from', 'get'); return 'body' })
  app.head('/page3xxx', async (_req, reply) => { reply.header('x-from', 'head'); return '' })
  assert.equal((await app.inject({ method: 'HEAD', url: '/page3xxx' })).headers['x-from'], 'head')
  assert.equal((await app.inject({ method: 'HEAD', url: '/page4xxx' })).headers['x-from'], 'get')
  await app.close()
})
