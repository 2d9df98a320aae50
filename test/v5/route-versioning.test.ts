import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

/** A custom `version` strategy in the shape of the removed `versioning` option: versions are any string. */
function customVersioning (): { storage: () => unknown, deriveVersion: (req: any) => unknown } {
  return {
    storage () {
      const versions: Record<string, unknown> = {}
      return { get: (v: string) => versions[v] ?? null, set: (v: string, store: unknown) => { versions[v] = store } }
    },
    deriveVersion: (req: any) => req.headers['x-api']
  }
}

for (const [name, factory] of v5Targets) {
  test(`${name}: the route option { version } is ignored: the route answers every request`, async () => {
    const app = factory()
    let seen: unknown
    app.addHook('onRoute', (opts: any) => { if (opts.method === 'GET') seen = opts.version })
    app.get('/', { version: '1.2.0' }, async () => 'reached')
    for (const headers of [{}, { 'accept-version': '1.x' }, { 'accept-version': '3.x' }]) {
      const res = await app.inject({ url: '/', headers })
      assert.equal(res.statusCode, 200)
      assert.equal(res.body, 'reached')
    }
    // onRoute hooks still see the option as written
    assert.equal(seen, '1.2.0')
    await app.close()
  })

  test(`${name}: constraints: { version } still constrains a route`, async () => {
    const app = factory()
    app.get('/', { constraints: { version: '1.2.0' } }, async () => 'v1')
    assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '1.x' } })).body, 'v1')
    assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '3.x' } })).statusCode, 404)
    await app.close()
  })

  test(`${name}: the server option { versioning } is ignored, unchecked and absent from initialConfig`, async () => {
    const app = factory({ versioning: customVersioning() })
    assert.equal(app.initialConfig.versioning, undefined)
    // the built-in semver strategy stays: a custom version string is not a version
    assert.throws(() => app.get('/', { constraints: { version: 'beta' } }, async () => 'beta'))
    app.get('/semver', { constraints: { version: '2.0.0' } }, async () => 'semver')
    assert.equal((await app.inject({ url: '/semver', headers: { 'accept-version': '2.x' } })).body, 'semver')
    assert.equal((await app.inject({ url: '/semver', headers: { 'x-api': '2.0.0' } })).statusCode, 404)
    await app.close()
    // not checked either
    await factory({ versioning: 'not an object' }).close()
  })
}

test('trellis (v4 line): { version } constrains the route; { versioning } replaces the strategy', async () => {
  const app = v4({ versioning: customVersioning() })
  assert.equal(typeof app.initialConfig.versioning, 'object')
  app.get('/', { version: 'beta' }, async () => 'beta')
  assert.equal((await app.inject({ url: '/', headers: { 'x-api': 'beta' } })).body, 'beta')
  assert.equal((await app.inject({ url: '/', headers: { 'x-api': 'alpha' } })).statusCode, 404)
  assert.throws(() => v4({ versioning: 'not an object' }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
  await app.close()
})
