import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { errorCodes } from '../../src/index'

test('defaults follow Fastify 4.3 (initialConfig), except the safe timeouts and the JSON depth limit (docs/security.md)', () => {
  const app = trellis()
  const c = app.initialConfig as Record<string, unknown>
  assert.equal(c.bodyLimit, 1048576)
  assert.equal(c.pluginTimeout, 10000)
  assert.equal(c.exposeHeadRoutes, true)
  assert.equal(c.ignoreTrailingSlash, false)
  assert.equal(c.caseSensitive, true)
  assert.equal(c.maxParamLength, 100)
  assert.equal(c.requestIdHeader, 'request-id')
  assert.equal(c.connectionTimeout, 0)
  assert.equal(c.keepAliveTimeout, 72000)
  assert.equal(c.requestTimeout, 300000)
  assert.equal(c.headersTimeout, 60000)
  assert.equal(c.jsonDepthLimit, 128)
  assert.equal(app.server.requestTimeout, 300000)
  assert.equal(app.server.headersTimeout, 60000)
  assert.equal(c.onProtoPoisoning, 'error')
  assert.equal(c.onConstructorPoisoning, 'error')
  assert.ok(Object.isFrozen(c))
})

test('ill-typed options fail fast with FST_ERR_INIT_OPTS_INVALID', () => {
  const bad: Array<Record<string, unknown>> = [
    { bodyLimit: 'lots' },
    { bodyLimit: 1.5 },
    { bodyLimit: -1 },
    { pluginTimeout: {} },
    { exposeHeadRoutes: 'yes' },
    { ignoreTrailingSlash: 3 },
    { caseSensitive: [] },
    { maxParamLength: 'x' },
    { requestIdHeader: 42 },
    { genReqId: 'nope' },
    { return503OnClosing: 'maybe' },
    { connectionTimeout: 'slow' },
    { keepAliveTimeout: -5 },
    { requestTimeout: null as unknown as number, onProtoPoisoning: 'explode' },
    { onConstructorPoisoning: true },
    { logger: 'verbose' }
  ]
  for (const opts of bad) {
    assert.throws(() => trellis(opts as never), (err: any) => {
      assert.ok(err instanceof errorCodes.FST_ERR_INIT_OPTS_INVALID, JSON.stringify(opts))
      assert.equal(err.code, 'FST_ERR_INIT_OPTS_INVALID')
      return true
    }, JSON.stringify(opts))
  }
})

test('a non-object options argument is refused (FST_ERR_OPTIONS_NOT_OBJ, Fastify 4.29)', () => {
  assert.throws(() => trellis('fast' as never), { code: 'FST_ERR_OPTIONS_NOT_OBJ' })
})

test('a non-object options argument is refused with Fastify\'s message; a bad boolean names the option and says "must be boolean"', () => {
  assert.throws(() => trellis('lol' as never), { code: 'FST_ERR_OPTIONS_NOT_OBJ', message: 'Options must be an object' })
  assert.throws(() => trellis({ jsonShorthand: 'hello' } as never), { code: 'FST_ERR_INIT_OPTS_INVALID', message: /"jsonShorthand" must be boolean/ })
})

test('a querystringParser that is not a function is refused with Fastify\'s message (FST_ERR_QSP_NOT_FN)', () => {
  assert.throws(() => trellis({ querystringParser: 10 } as never), { code: 'FST_ERR_QSP_NOT_FN', message: "querystringParser option should be a function, instead got 'number'" })
})

test('numbers and booleans given as strings are coerced like 4.3', () => {
  const app = trellis({ bodyLimit: '2048' as never, caseSensitive: 'false' as never })
  assert.equal(app.initialConfig.bodyLimit, 2048)
  assert.equal(app.initialConfig.caseSensitive, false)
})

test('unknown options are tolerated', async () => {
  const app = trellis({ somethingNew: { a: 1 }, another: 'x' } as never)
  app.get('/', async () => ({ ok: true }))
  const res = await app.inject('/')
  assert.equal(res.statusCode, 200)
  await app.close()
})

test('pluginTimeout: a plugin that never calls done fails ready() with FST_ERR_PLUGIN_TIMEOUT', async () => {
  const app = trellis({ pluginTimeout: 50 })
  app.register(function neverDone (_i: unknown, _o: unknown, _done: () => void) {})
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_TIMEOUT')
    return true
  })
})

test('pluginTimeout: 0 disables the timeout', async () => {
  const app = trellis({ pluginTimeout: 0 })
  app.register(async () => { await new Promise((resolve) => setTimeout(resolve, 30)) })
  await app.ready()
  await app.close()
})

test('bodyLimit option applies to every route; route bodyLimit overrides it', async () => {
  const app = trellis({ bodyLimit: 10 })
  app.post('/', async (req) => req.body)
  app.post('/big', { bodyLimit: 100 }, async (req) => req.body)
  const payload = JSON.stringify({ text: 'more than ten bytes' })
  const small = await app.inject({ method: 'POST', url: '/', payload, headers: { 'content-type': 'application/json' } })
  assert.equal(small.statusCode, 413)
  assert.equal(small.json().code, 'FST_ERR_CTP_BODY_TOO_LARGE')
  const big = await app.inject({ method: 'POST', url: '/big', payload, headers: { 'content-type': 'application/json' } })
  assert.equal(big.statusCode, 200)
  assert.deepEqual(big.json(), { text: 'more than ten bytes' })
  await app.close()
})

test('default bodyLimit is 1 MiB', async () => {
  const app = trellis()
  app.post('/', async (req) => ({ length: (req.body as string).length }))
  const ok = await app.inject({ method: 'POST', url: '/', payload: 'a'.repeat(1048576), headers: { 'content-type': 'text/plain' } })
  assert.equal(ok.statusCode, 200)
  assert.equal(ok.json().length, 1048576)
  const tooBig = await app.inject({ method: 'POST', url: '/', payload: 'a'.repeat(1048577), headers: { 'content-type': 'text/plain' } })
  assert.equal(tooBig.statusCode, 413)
  await app.close()
})

test('exposeHeadRoutes: false means no automatic HEAD route', async () => {
  const app = trellis({ exposeHeadRoutes: false })
  app.get('/', async () => 'hello')
  const res = await app.inject({ method: 'HEAD', url: '/' })
  assert.equal(res.statusCode, 404)
  await app.close()
})

test('ignoreTrailingSlash', async () => {
  const strict = trellis()
  strict.get('/a', async () => 'a')
  assert.equal((await strict.inject('/a/')).statusCode, 404)
  await strict.close()
  const loose = trellis({ ignoreTrailingSlash: true })
  loose.get('/a', async () => 'a')
  loose.get('/b/', async () => 'b')
  assert.equal((await loose.inject('/a/')).body, 'a')
  assert.equal((await loose.inject('/b')).body, 'b')
  await loose.close()
})

test('caseSensitive: false matches paths in any case but keeps param values as sent', async () => {
  const app = trellis({ caseSensitive: false })
  app.get('/Users/:name', async (req) => req.params)
  const res = await app.inject('/USERS/AnNa')
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { name: 'AnNa' })
  await app.close()
  const strict = trellis()
  strict.get('/Users', async () => 'x')
  assert.equal((await strict.inject('/users')).statusCode, 404)
  await strict.close()
})

test('maxParamLength: longer params give 404', async () => {
  const app = trellis({ maxParamLength: 5 })
  app.get('/p/:id', async (req) => req.params)
  assert.equal((await app.inject('/p/12345')).statusCode, 200)
  assert.equal((await app.inject('/p/123456')).statusCode, 404)
  await app.close()
})

test('requestIdHeader: the id comes from the header (case-insensitive name), else genReqId', async () => {
  let n = 0
  const app = trellis({ requestIdHeader: 'X-Trace-Id', genReqId: () => `gen-${++n}` })
  app.get('/', async (req) => ({ id: req.id }))
  assert.equal((await app.inject({ url: '/', headers: { 'x-trace-id': 'abc' } })).json().id, 'abc')
  assert.equal((await app.inject('/')).json().id, 'gen-1')
  await app.close()
})

test('default request id header is request-id; requestIdHeader false ignores it', async () => {
  const app = trellis()
  app.get('/', async (req) => ({ id: req.id }))
  assert.equal((await app.inject({ url: '/', headers: { 'request-id': 'from-client' } })).json().id, 'from-client')
  const a = (await app.inject('/')).json().id
  const b = (await app.inject('/')).json().id
  assert.equal(typeof a, 'string')
  assert.notEqual(a, b)
  await app.close()

  const off = trellis({ requestIdHeader: false, genReqId: () => 'mine' })
  off.get('/', async (req) => ({ id: req.id }))
  assert.equal((await off.inject({ url: '/', headers: { 'request-id': 'from-client' } })).json().id, 'mine')
  await off.close()
})

test('genReqId receives the raw request', async () => {
  const app = trellis({ genReqId: (req) => `${req.method}-${req.url}` })
  app.get('/x', async (req) => ({ id: req.id }))
  assert.equal((await app.inject('/x')).json().id, 'GET-/x')
  await app.close()
})

test('server timeouts are applied to the node server', async () => {
  const app = trellis({ connectionTimeout: 1234, keepAliveTimeout: 4321, requestTimeout: 5678 })
  assert.equal(app.server.timeout, 1234)
  assert.equal(app.server.keepAliveTimeout, 4321)
  assert.equal(app.server.requestTimeout, 5678)
  // the headers deadline defaults to at most the request deadline
  assert.equal(app.server.headersTimeout, 5678)
  assert.equal((app.initialConfig as Record<string, unknown>).headersTimeout, 5678)
  await app.close()
  const custom = trellis({ requestTimeout: 9000, headersTimeout: 2000 })
  assert.equal(custom.server.headersTimeout, 2000)
  const off = trellis({ requestTimeout: 0, headersTimeout: 0 })
  assert.equal(off.server.requestTimeout, 0)
  assert.equal(off.server.headersTimeout, 0)
  const onlyHeaders = trellis({ requestTimeout: 0 })
  assert.equal(onlyHeaders.server.headersTimeout, 60000)
})

test('timeout and JSON depth options are checked: integers >= 0, headersTimeout not above requestTimeout', () => {
  for (const options of [{ headersTimeout: -1 }, { headersTimeout: 'soon' }, { requestTimeout: 1000, headersTimeout: 2000 }, { jsonDepthLimit: 1.5 }, { jsonDepthLimit: -3 }, { connectionsCheckingInterval: 0 }]) {
    assert.throws(() => trellis(options as never), (err: Error & { code?: string }) => err.code === 'FST_ERR_INIT_OPTS_INVALID', JSON.stringify(options))
  }
})

test('onProtoPoisoning and onConstructorPoisoning', async () => {
  const body = '{ "a": 1, "__proto__": { "polluted": true } }'
  const ctor = '{ "a": 1, "constructor": { "prototype": { "polluted": true } } }'
  const headers = { 'content-type': 'application/json' }

  const strict = trellis()
  strict.post('/', async (req) => ({ keys: Object.keys(req.body as object), polluted: (req.body as any).polluted ?? null }))
  const r1 = await strict.inject({ method: 'POST', url: '/', payload: body, headers })
  assert.equal(r1.statusCode, 400)
  const r2 = await strict.inject({ method: 'POST', url: '/', payload: ctor, headers })
  assert.equal(r2.statusCode, 400)
  await strict.close()

  const remove = trellis({ onProtoPoisoning: 'remove', onConstructorPoisoning: 'remove' })
  remove.post('/', async (req) => ({ keys: Object.keys(req.body as object), polluted: (req.body as any).polluted ?? null }))
  const r3 = await remove.inject({ method: 'POST', url: '/', payload: body, headers })
  assert.equal(r3.statusCode, 200)
  assert.deepEqual(r3.json(), { keys: ['a'], polluted: null })
  const r4 = await remove.inject({ method: 'POST', url: '/', payload: ctor, headers })
  assert.equal(r4.statusCode, 200)
  assert.deepEqual(r4.json(), { keys: ['a'], polluted: null })
  await remove.close()

  const ignore = trellis({ onProtoPoisoning: 'ignore', onConstructorPoisoning: 'ignore' })
  ignore.post('/', async (req) => ({ keys: Object.keys(req.body as object) }))
  const r5 = await ignore.inject({ method: 'POST', url: '/', payload: ctor, headers })
  assert.equal(r5.statusCode, 200)
  assert.deepEqual(r5.json(), { keys: ['a', 'constructor'] })
  assert.equal(({} as any).polluted, undefined)
  await ignore.close()
})
