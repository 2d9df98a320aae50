/**
 * The CommonJS half of declarations.test.ts: a CommonJS consumer of the built package type-checks,
 * including module augmentation under the Fastify and the trellis names. Needs `npm run build`.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { compile } from './compile-fixtures'

test('a CommonJS module requiring trellis type-checks', () => {
  const { status, output } = compile('cjs-usage.cts')
  assert.equal(status, 0, output)
})

test('module augmentation under the Fastify or the trellis name extends the same interface (CommonJS)', () => {
  const { status, output } = compile('cjs-augment.cts')
  assert.equal(status, 0, output)
})
