import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

function secretStrategy (): any {
  return {
    name: 'secret',
    storage () {
      const secrets: Record<string, unknown> = {}
      return { get: (k: string) => secrets[k] ?? null, set: (k: string, v: unknown) => { secrets[k] = v } }
    },
    deriveConstraint: (req: { headers: Record<string, string> }) => req.headers['x-secret'],
    validate () { return true }
  }
}

test('addConstraintStrategy after creation: routes constrained by it match on the derived value', async () => {
  const app = trellis()
  assert.equal(app.hasConstraintStrategy('secret'), false)
  app.addConstraintStrategy(secretStrategy())
  assert.equal(app.hasConstraintStrategy('secret'), true)
  app.get('/', { constraints: { secret: 'alpha' } }, async () => 'alpha')
  app.get('/', async () => 'open')
  assert.equal((await app.inject({ url: '/', headers: { 'x-secret': 'alpha' } })).body, 'alpha')
  assert.equal((await app.inject({ url: '/' })).body, 'open')
  assert.throws(() => app.addConstraintStrategy(secretStrategy()), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING', message: /Cannot add constraint strategy!/ })
})

test('addConstraintStrategy refuses a duplicate custom strategy; built-in strategies count as present once used', () => {
  const app = trellis()
  app.addConstraintStrategy(secretStrategy())
  assert.throws(() => app.addConstraintStrategy(secretStrategy()), /There already exists a custom constraint with the name secret/)
  assert.equal(app.hasConstraintStrategy('host'), false)
  app.get('/', { constraints: { host: 'example.com' } }, async () => 'x')
  assert.equal(app.hasConstraintStrategy('host'), true)
})
