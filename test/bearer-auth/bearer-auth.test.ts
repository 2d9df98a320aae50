/**
 * trellis/bearer-auth: every option, the security rules, registration errors and encapsulation,
 * over inject.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import crypto = require('node:crypto')
import trellis, { type TrellisInstance } from '../../src/index'
import fp from '../../src/plugin'
import bearerAuth, { verifyBearerAuthFactory, bearerAuthErrors, type BearerAuthOptions } from '../../src/bearer-auth'

const KEY = 'test-key-0123'

function get (app: ReturnType<typeof trellis>, url: string, authorization?: string) {
  return app.inject({ method: 'GET', url, headers: authorization === undefined ? {} : { authorization } })
}

function appWith (options: BearerAuthOptions | Record<string, unknown>) {
  const app = trellis()
  app.register(bearerAuth, options as BearerAuthOptions)
  app.get('/test', async () => ({ hello: 'world' }))
  return app
}

describe('keys', () => {
  it('accepts an array and a Set, with duplicates', async () => {
    for (const keys of [[KEY, 'other', KEY], new Set([KEY, 'other'])]) {
      const app = appWith({ keys })
      assert.equal((await get(app, '/test', `Bearer ${KEY}`)).statusCode, 200)
      assert.equal((await get(app, '/test', 'Bearer other')).statusCode, 200)
      assert.equal((await get(app, '/test', 'Bearer third')).statusCode, 401)
      await app.close()
    }
  })

  it('refuses tokens of any length, from 1 character to 64 KiB', async () => {
    const app = appWith({ keys: [KEY] })
    for (const token of ['x', KEY.slice(0, -1), KEY + KEY, 'y'.repeat(65536)]) {
      const res = await get(app, '/test', `Bearer ${token}`)
      assert.equal(res.statusCode, 401)
      assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"')
    }
    await app.close()
  })

  it('compares digests of equal size against every key, without early exit', async () => {
    const keys = ['first-key', 'second-key-longer', 'k3']
    const app = appWith({ keys })
    await app.ready()
    const original = crypto.timingSafeEqual
    const calls: Array<[number, number]> = []
    crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.push([a.byteLength, b.byteLength])
      return original(a, b)
    }) as typeof crypto.timingSafeEqual
    try {
      for (const token of ['first-key', 'k3', 'nope', 'a'.repeat(1000)]) {
        calls.length = 0
        await get(app, '/test', `Bearer ${token}`)
        assert.equal(calls.length, keys.length, `every key is compared for ${token.slice(0, 10)}`)
        for (const [a, b] of calls) { assert.equal(a, 32); assert.equal(b, 32) }
      }
    } finally {
      crypto.timingSafeEqual = original
    }
    await app.close()
  })
})

describe('responses', () => {
  it('401 bodies and challenges', async () => {
    const app = appWith({ keys: [KEY] })
    let res = await get(app, '/test')
    assert.equal(res.statusCode, 401)
    assert.deepEqual(res.json(), { error: 'missing authorization header' })
    assert.equal(res.headers['www-authenticate'], 'Bearer')
    assert.match(String(res.headers['content-type']), /^application\/json/)
    res = await get(app, '/test', 'Bearer wrong')
    assert.deepEqual(res.json(), { error: 'invalid authorization header' })
    assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"')
    for (const header of ['Basic ' + KEY, 'AAAAAA ' + KEY, 'Bearer' + KEY, 'Bearer', 'Bearer   ', 'Bearer\t' + KEY]) {
      res = await get(app, '/test', header)
      assert.equal(res.statusCode, 401, header)
      assert.deepEqual(res.json(), { error: 'invalid authorization header' })
      assert.equal(res.headers['www-authenticate'], 'Bearer', header)
    }
    res = await get(app, '/test', `Bearer ${KEY}`)
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['www-authenticate'], undefined)
    await app.close()
  })

  it('the scheme is case-insensitive, the key is not', async () => {
    const app = appWith({ keys: [KEY] })
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
      assert.equal((await get(app, '/test', `${scheme} ${KEY}`)).statusCode, 200, scheme)
    }
    assert.equal((await get(app, '/test', `Bearer ${KEY.toUpperCase()}`)).statusCode, 401)
    await app.close()
  })

  it('bearerType names the scheme and the challenge', async () => {
    const app = appWith({ keys: [KEY], bearerType: 'Token' })
    assert.equal((await get(app, '/test', `token ${KEY}`)).statusCode, 200)
    const res = await get(app, '/test', 'Token nope')
    assert.equal(res.headers['www-authenticate'], 'Token error="invalid_token"')
    assert.equal((await get(app, '/test', `Bearer ${KEY}`)).headers['www-authenticate'], 'Token')
    await app.close()
  })

  it('contentType and errorResponse shape the 401', async () => {
    const app = appWith({ keys: [KEY], contentType: 'text/plain; charset=utf-8', errorResponse: (err: Error) => `denied: ${err.message}` })
    const res = await get(app, '/test', 'Bearer nope')
    assert.equal(res.statusCode, 401)
    assert.equal(res.headers['content-type'], 'text/plain; charset=utf-8')
    assert.equal(res.body, 'denied: invalid authorization header')
    await app.close()
  })

  it('an errorResponse that throws gives a 500 through the error handler, and the server keeps serving', async () => {
    const app = appWith({ keys: [KEY], errorResponse: () => { throw new Error('broken formatter') } })
    const res = await get(app, '/test', 'Bearer nope')
    assert.equal(res.statusCode, 500)
    assert.equal((await get(app, '/test', `Bearer ${KEY}`)).statusCode, 200)
    await app.close()
  })

  it('protects every method of the context, before the body is read', async () => {
    let parsed = false
    const app = trellis()
    app.addContentTypeParser('application/json', (_req: unknown, _body: unknown, done: (e: null, v: unknown) => void) => { parsed = true; done(null, {}) })
    app.register(bearerAuth, { keys: [KEY] })
    app.post('/p', async () => ({ posted: true }))
    const res = await app.inject({ method: 'POST', url: '/p', payload: { a: 1 } })
    assert.equal(res.statusCode, 401)
    assert.equal(parsed, false)
    const ok = await app.inject({ method: 'POST', url: '/p', payload: { a: 1 }, headers: { authorization: `Bearer ${KEY}` } })
    assert.deepEqual(ok.json(), { posted: true })
    await app.close()
  })
})

describe('auth option', () => {
  it('sync and async functions get the token and the request', async () => {
    const seen: Array<[string, string]> = []
    for (const auth of [
      (key: string, req: { url: string }) => { seen.push([key, req.url]); return key === 'good' },
      async (key: string, req: { url: string }) => { seen.push([key, req.url]); return key === 'good' }
    ]) {
      const app = appWith({ auth })
      assert.equal((await get(app, '/test', 'Bearer good')).statusCode, 200)
      assert.equal((await get(app, '/test', 'Bearer bad')).statusCode, 401)
      await app.close()
    }
    assert.deepEqual(seen, [['good', '/test'], ['bad', '/test'], ['good', '/test'], ['bad', '/test']])
  })

  it('throwing, rejecting and non-boolean results are 401 with invalid_token, never 500 or a crash', async () => {
    const auths = [
      () => { throw new Error('boom') },
      async () => { throw new Error('boom') },
      () => Promise.reject(undefined), // eslint-disable-line prefer-promise-reject-errors
      () => 'true',
      () => 1,
      async () => undefined
    ]
    for (const auth of auths) {
      const app = appWith({ auth })
      const res = await get(app, '/test', 'Bearer whatever')
      assert.equal(res.statusCode, 401, String(auth))
      assert.deepEqual(res.json(), { error: 'invalid authorization header' })
      assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"')
      await app.close()
    }
  })

  it('an auth that is never asked without a well-formed header', async () => {
    let calls = 0
    const app = appWith({ auth: () => { calls++; return true } })
    await get(app, '/test')
    await get(app, '/test', 'Bearer ')
    await get(app, '/test', 'Basic x')
    assert.equal(calls, 0)
    await app.close()
  })
})

describe('addHook: false', () => {
  it('does not protect routes; decorates verifyBearerAuth and verifyBearerAuthFactory for own hooks', async () => {
    const app = trellis()
    app.register(bearerAuth, { keys: [KEY], addHook: false })
    await app.after()
    assert.equal(typeof app.verifyBearerAuth, 'function')
    assert.equal(app.verifyBearerAuthFactory, verifyBearerAuthFactory)
    app.get('/open', async () => ({ open: true }))
    app.get('/guarded', { onRequest: app.verifyBearerAuth }, async () => ({ guarded: true }))
    assert.equal((await get(app, '/open')).statusCode, 200)
    let res = await get(app, '/guarded')
    assert.equal(res.statusCode, 401)
    assert.equal(res.headers['www-authenticate'], 'Bearer')
    assert.equal(res.json().message, 'missing authorization header')
    res = await get(app, '/guarded', 'Bearer nope')
    assert.equal(res.statusCode, 401)
    assert.equal(res.headers['www-authenticate'], 'Bearer error="invalid_token"')
    assert.equal(res.json().code, 'FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER')
    assert.deepEqual((await get(app, '/guarded', `Bearer ${KEY}`)).json(), { guarded: true })
    await app.close()
  })

  it('passes the error to done, so an error handler (or @fastify/auth-style chains) decides', async () => {
    const app = trellis()
    app.register(bearerAuth, { keys: [KEY], addHook: false })
    await app.after()
    const errors: Array<{ code: string; statusCode: number }> = []
    app.setErrorHandler((err: Error & { code: string; statusCode: number }, _req, reply) => {
      errors.push({ code: err.code, statusCode: err.statusCode })
      reply.code(403).send({ custom: true })
    })
    app.get('/guarded', { preHandler: app.verifyBearerAuth }, async () => ({ guarded: true }))
    const res = await get(app, '/guarded', 'Bearer nope')
    assert.equal(res.statusCode, 403)
    assert.deepEqual(res.json(), { custom: true })
    assert.deepEqual(errors, [{ code: 'FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER', statusCode: 401 }])
    await app.close()
  })

  it('verifyBearerAuthFactory builds verifiers with their own options', async () => {
    const app = trellis()
    app.get('/a', { onRequest: verifyBearerAuthFactory({ keys: ['a-key'] }) }, async () => ({ a: true }))
    app.get('/b', { onRequest: verifyBearerAuthFactory({ auth: (k) => k === 'b-key', bearerType: 'Token' }) }, async () => ({ b: true }))
    assert.equal((await get(app, '/a', 'Bearer a-key')).statusCode, 200)
    assert.equal((await get(app, '/a', 'Bearer b-key')).statusCode, 401)
    assert.equal((await get(app, '/b', 'Token b-key')).statusCode, 200)
    assert.equal((await get(app, '/b', 'Bearer b-key')).statusCode, 401)
    assert.throws(() => verifyBearerAuthFactory({}), { code: 'FST_BEARER_AUTH_MISSING_KEYS_OR_AUTH' })
    await app.close()
  })
})

describe('invalid options fail at registration', () => {
  const bad: Array<[string, unknown, string, RegExp]> = [
    ['no options', undefined, 'FST_BEARER_AUTH_MISSING_KEYS_OR_AUTH', /options\.keys .* or options\.auth/],
    ['empty options', {}, 'FST_BEARER_AUTH_MISSING_KEYS_OR_AUTH', /options\.keys/],
    ['empty keys and no auth', { keys: [] }, 'FST_BEARER_AUTH_MISSING_KEYS_OR_AUTH', /options\.keys/],
    ['empty Set and no auth', { keys: new Set() }, 'FST_BEARER_AUTH_MISSING_KEYS_OR_AUTH', /options\.keys/],
    ['keys is a string', { keys: KEY }, 'FST_BEARER_AUTH_INVALID_KEYS_OPTION_TYPE', /Array or a Set/],
    ['a number key', { keys: [KEY, 42] }, 'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE', /string/],
    ['an empty-string key', { keys: [''] }, 'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE', /non-empty string/],
    ['a non-string key with auth', { keys: [null], auth: () => true }, 'FST_BEARER_AUTH_KEYS_OPTION_INVALID_KEY_TYPE', /string/],
    ['auth is not a function', { auth: 'yes' }, 'FST_BEARER_AUTH_INVALID_OPTIONS', /options\.auth must be a function/],
    ['errorResponse is not a function', { keys: [KEY], errorResponse: {} }, 'FST_BEARER_AUTH_INVALID_OPTIONS', /errorResponse/],
    ['contentType is not a string', { keys: [KEY], contentType: 5 }, 'FST_BEARER_AUTH_INVALID_OPTIONS', /contentType/],
    ['bearerType with a space', { keys: [KEY], bearerType: 'Bear er' }, 'FST_BEARER_AUTH_INVALID_OPTIONS', /bearerType/],
    ['empty bearerType', { keys: [KEY], bearerType: '' }, 'FST_BEARER_AUTH_INVALID_OPTIONS', /bearerType/],
    ['addHook not boolean', { keys: [KEY], addHook: 'no' }, 'FST_BEARER_AUTH_INVALID_OPTIONS', /addHook/],
    ['unknown log level', { keys: [KEY], verifyErrorLogLevel: 'loud' }, 'FST_BEARER_AUTH_INVALID_LOG_LEVEL', /loud/]
  ]
  for (const [name, options, code, message] of bad) {
    it(name, async () => {
      const app = trellis()
      app.register(bearerAuth, options as BearerAuthOptions)
      await assert.rejects(app.ready(), (err: Error & { code: string }) => {
        assert.equal(err.code, code)
        assert.match(err.message, message)
        return true
      })
    })
  }

  it('the error classes are exported', () => {
    assert.equal(new bearerAuthErrors.FST_BEARER_AUTH_MISSING_AUTHORIZATION_HEADER().statusCode, 401)
    assert.equal(new bearerAuthErrors.FST_BEARER_AUTH_INVALID_AUTHORIZATION_HEADER().message, 'invalid authorization header')
  })
})

describe('encapsulation (the plugin is wrapped with trellis/plugin)', () => {
  it('protects the context it is registered in and its descendants, not the parent or siblings', async () => {
    const app = trellis()
    app.get('/root', async () => ({ where: 'root' }))
    app.register(async (a: TrellisInstance) => {
      a.register(bearerAuth, { keys: [KEY] })
      a.get('/a', async () => ({ where: 'a' }))
      a.register(async (child: TrellisInstance) => { child.get('/a/child', async () => ({ where: 'a/child' })) })
    })
    app.register(async (b: TrellisInstance) => { b.get('/b', async () => ({ where: 'b' })) })
    await app.ready()
    for (const open of ['/root', '/b']) assert.equal((await get(app, open)).statusCode, 200, open)
    for (const closed of ['/a', '/a/child']) {
      assert.equal((await get(app, closed)).statusCode, 401, closed)
      assert.equal((await get(app, closed, `Bearer ${KEY}`)).statusCode, 200, closed)
    }
    await app.close()
  })

  it('registered at the root it protects everything; inside a wrapped plugin it reaches that plugin\'s parent', async () => {
    const app = trellis()
    app.register(fp(async (inner: TrellisInstance) => { inner.register(bearerAuth, { keys: [KEY] }) }))
    app.get('/x', async () => ({ x: 1 }))
    app.register(async (c: TrellisInstance) => { c.get('/y', async () => ({ y: 1 })) })
    assert.equal((await get(app, '/x')).statusCode, 401)
    assert.equal((await get(app, '/y')).statusCode, 401)
    assert.equal((await get(app, '/y', `Bearer ${KEY}`)).statusCode, 200)
    await app.close()
  })

  it('two contexts with different keys stay independent', async () => {
    const app = trellis()
    app.register(async (a: TrellisInstance) => { a.register(bearerAuth, { keys: ['ka'] }); a.get('/a', async () => ({ a: 1 })) })
    app.register(async (b: TrellisInstance) => { b.register(bearerAuth, { keys: ['kb'] }); b.get('/b', async () => ({ b: 1 })) })
    assert.equal((await get(app, '/a', 'Bearer ka')).statusCode, 200)
    assert.equal((await get(app, '/a', 'Bearer kb')).statusCode, 401)
    assert.equal((await get(app, '/b', 'Bearer kb')).statusCode, 200)
    assert.equal((await get(app, '/b', 'Bearer ka')).statusCode, 401)
    await app.close()
  })
})
