/**
 * The deprecated ways to version routes (Fastify 4.3): the route `version` option (FSTDEP008) and
 * the server `versioning` option (FSTDEP009), each warned once per process.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

function collectWarnings (): { codes: string[], stop: () => void } {
  const codes: string[] = []
  const listener = (w: Error & { code?: string }): void => { if (w.name === 'DeprecationWarning' && w.code !== undefined) codes.push(w.code) }
  process.on('warning', listener)
  return { codes, stop: () => process.off('warning', listener) }
}

const tick = async (): Promise<void> => await new Promise((resolve) => setImmediate(resolve))

test('the route version option works as constraints.version and warns FSTDEP008 once', async () => {
  const warnings = collectWarnings()
  const app = trellis()
  app.get('/', { version: '1.2.0' } as never, async () => 'v1')
  app.get('/b', { version: '1.0.0' } as never, async () => 'b')
  assert.equal((await app.inject({ url: '/', headers: { 'accept-version': '1.x' } })).body, 'v1')
  await tick()
  warnings.stop()
  assert.deepEqual(warnings.codes, ['FSTDEP008'])
})

test('the versioning server option is the version strategy (string versions only) and warns FSTDEP009', async () => {
  const warnings = collectWarnings()
  const app = trellis({
    versioning: {
      storage () {
        const versions: Record<string, unknown> = {}
        return { get: (v: string) => versions[v] ?? null, set: (v: string, store: unknown) => { versions[v] = store } }
      },
      deriveVersion: (req: any) => req.headers.accept
    }
  } as never)
  app.get('/', { constraints: { version: 'application/vnd.ex+json;version=1' } }, async () => 'v1')
  assert.throws(() => app.get('/', { constraints: { version: 2 } } as never, async () => 'v2'), { message: 'Version constraint should be a string.' })
  assert.equal((await app.inject({ url: '/', headers: { accept: 'application/vnd.ex+json;version=1' } })).body, 'v1')
  assert.equal((await app.inject({ url: '/', headers: { accept: 'application/vnd.ex+json;version=2' } })).statusCode, 404)
  await tick()
  warnings.stop()
  assert.deepEqual(warnings.codes, ['FSTDEP009'])
})

test('a versioning option without storage or deriveVersion is refused', () => {
  assert.throws(() => trellis({ versioning: { storage: () => ({}) } } as never), { code: 'FST_ERR_INIT_OPTS_INVALID' })
})
