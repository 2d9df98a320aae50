/**
 * The CommonJS half of declarations.test.ts: a CommonJS consumer of the built package type-checks,
 * including module augmentation under the Fastify and the trellis names. Needs `npm run build`.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compile } from './compile-fixtures'

test('a CommonJS module requiring trellis type-checks', async () => {
  const { status, output } = await compile('cjs-usage.cts')
  assert.equal(status, 0, output)
})

test('module augmentation under the Fastify or the trellis name extends the same interface (CommonJS)', async () => {
  const { status, output } = await compile('cjs-augment.cts')
  assert.equal(status, 0, output)
})
