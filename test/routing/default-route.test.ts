import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { errorCodes } from '../../src/index'

test('setDefaultRoute replaces what answers unmatched requests; getDefaultRoute returns it', async () => {
  const app = trellis()
  const fallback = (_req: unknown, res: import('node:http').ServerResponse): void => { res.end('hello from defaultRoute') }
  assert.equal(typeof app.getDefaultRoute(), 'function')
  app.setDefaultRoute(fallback)
  assert.equal(app.getDefaultRoute(), fallback)
  app.get('/', async () => 'root')
  assert.equal((await app.inject('/random')).body, 'hello from defaultRoute')
  assert.equal((await app.inject('/')).body, 'root')
  await app.close()
})

test('setDefaultRoute refuses a non-function with FST_ERR_DEFAULT_ROUTE_INVALID_TYPE', () => {
  const app = trellis()
  assert.throws(() => app.setDefaultRoute({} as never), errorCodes.FST_ERR_DEFAULT_ROUTE_INVALID_TYPE)
})
