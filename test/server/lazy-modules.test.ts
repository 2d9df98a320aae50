/**
 * Memory at boot: optional dependencies are loaded on first use. A listening server with logging
 * off and no schemas loads neither pino, light-my-request, Ajv, ajv-formats, node:http2 nor
 * node:https; Ajv arrives with the first request schema, light-my-request with the first inject(),
 * and each works as if it had been loaded up front.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { runChild } from '../run-child'

/** The fixture in a fresh process (awaited: the test process goes on with other files' tests meanwhile). */
async function run (arg: string): Promise<Record<string, string[]>> {
  const child = await runChild(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'lazy-modules.ts'), arg])
  assert.equal(child.status, 0, child.stderr)
  return JSON.parse(child.stdout.trim()) as Record<string, string[]>
}

test('no schemas, logging off: nothing optional is loaded until inject() loads light-my-request', { timeout: 60_000 }, async () => {
  const steps = await run('none')
  assert.deepEqual(steps.ready, [])
  assert.deepEqual(steps.request, ['200', '{"n":"3"}'])
  assert.deepEqual(steps.listening, [])
  assert.deepEqual(steps.inject, ['200', '{"n":"4"}'])
  assert.deepEqual(steps.injected, ['light-my-request'])
})

test('with request and response schemas: Ajv and ajv-formats are loaded at ready(), and validate', { timeout: 60_000 }, async () => {
  const steps = await run('schemas')
  assert.deepEqual(steps.ready, ['ajv', 'ajv-formats'])
  assert.deepEqual(steps.request, ['200', '{"n":3}'])
  assert.deepEqual(steps.inject, ['200', '{"n":4}'])
  assert.deepEqual(steps.injected, ['light-my-request', 'ajv', 'ajv-formats'])
})
