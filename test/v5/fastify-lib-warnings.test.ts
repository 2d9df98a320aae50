// `fastify/lib/warnings` as trellis's compat adapter serves it: process-warning's spyWarning sees
// the calls of the warnings the framework really emits, as on the real fastify@5.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createRequire } from 'node:module'
import { v5Targets } from './lines'
import trellisWarnings = require('../../src/compat/fastify-lib/warnings')

type Spy = (w: unknown) => { calls: Array<{ arguments: unknown[], result: unknown }>, callCount: () => number, restore: () => void }
// each target's own process-warning (fastify@5 is installed apart, in the suite packages' cache:
// scripts/suite-deps.mjs), the copy that made its warnings
const spies: Record<string, Spy> = {
  'trellis/v5': (require('process-warning') as { spyWarning: Spy }).spyWarning,
  'fastify@5': (createRequire(require.resolve('fastify/lib/warnings'))('process-warning') as { spyWarning: Spy }).spyWarning
}
const fastifyWarnings = require('fastify/lib/warnings') as Record<string, unknown>

const libs: Record<string, Record<string, any>> = { 'trellis/v5': trellisWarnings, 'fastify@5': fastifyWarnings }

for (const [name, factory] of v5Targets) {
  test(`${name}: spyWarning on lib/warnings sees FSTWRN001 and FSTSEC002 as emitted`, async () => {
    const { FSTWRN001, FSTSEC002 } = libs[name]
    const spyWarning = spies[name]
    assert.equal(FSTSEC002.code, 'FSTSEC002')
    assert.equal(FSTSEC002.name, 'FastifySecurity')
    const missing = spyWarning(FSTWRN001)
    const external = spyWarning(FSTSEC002)
    try {
      const app = factory({ exposeHeadRoutes: false })
      app.addSchema({ $id: 'http://example.com/h', type: 'object' })
      app.post('/a', { schema: { body: undefined } }, async () => 'ok')
      app.get('/b', { schema: { headers: { $ref: 'http://example.com/h#' } } }, async () => 'ok')
      await app.ready()
      assert.deepEqual(missing.calls, [{ arguments: ['body', 'POST', '/a'], result: true }])
      assert.deepEqual(external.calls, [{ arguments: ['GET', '/b', 'http://example.com/h#'], result: true }])
      await app.close()
    } finally {
      missing.restore()
      external.restore()
    }
    // restored: the warning emits again without the spy counting
    assert.equal(missing.callCount(), 0)
  })
}
