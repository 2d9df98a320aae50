import { test } from 'node:test'
import assert from 'node:assert/strict'
import { serializers } from '../../src/server/logger'
import loggerLib = require('../../src/compat/fastify-lib/logger')

test('the req serializer does not fail when the request has no socket', () => {
  assert.deepEqual(serializers.req({ method: 'GET', url: '/', socket: undefined, headers: {} }), {
    method: 'GET', url: '/', version: undefined, hostname: undefined, remoteAddress: undefined, remotePort: undefined
  })
})

test('the lib/logger adapter exposes the real serializers and a millisecond clock', () => {
  assert.equal(loggerLib.serializers, serializers)
  assert.equal(typeof loggerLib.now(), 'number')
  assert.equal(loggerLib.createLogger({ logger: false }).hasLogger, false)
})
