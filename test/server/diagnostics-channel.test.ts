import { test } from 'node:test'
import assert from 'node:assert/strict'
import diagnosticsChannel from 'node:diagnostics_channel'
import trellis from '../../src/index'

test('a new instance is published on the fastify.initialization diagnostics channel', () => {
  const seen: unknown[] = []
  const onMessage = (message: unknown): void => { seen.push((message as { fastify: unknown }).fastify) }
  diagnosticsChannel.subscribe('fastify.initialization', onMessage)
  try {
    const app = trellis()
    assert.equal(seen.length, 1)
    assert.equal(seen[0], app)
  } finally {
    diagnosticsChannel.unsubscribe('fastify.initialization', onMessage)
  }
  trellis()
  assert.equal(seen.length, 1, 'nothing is published once the subscriber left')
})
