/**
 * Ajv's `code.optimize` pass is off by default (it was half of Ajv's compile time and the validators
 * ran no faster; docs/validation.md), unless `ajv.customOptions.code.optimize` sets it: the user's
 * options win, as in Fastify 4.3. Validation results are the same either way.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { createDefaultValidatorCompiler, effectiveAjvOptions } from '../../src/schema/validation/index'

const codeOptions = (customOptions?: Record<string, unknown>): Record<string, unknown> =>
  (createDefaultValidatorCompiler({}, { customOptions }).ajv.opts as unknown as { code: Record<string, unknown> }).code

test('the default compiler gives Ajv code.optimize false (Ajv stores it as 0 passes)', () => {
  assert.equal(codeOptions().optimize, 0)
  assert.equal(codeOptions({}).optimize, 0)
  assert.deepEqual(effectiveAjvOptions({}).code, { optimize: false })
})

test('ajv.customOptions.code.optimize wins, and other code options keep the default off', () => {
  assert.equal(codeOptions({ code: { optimize: true } }).optimize, 1)
  assert.equal(codeOptions({ code: { optimize: 3 } }).optimize, 3)
  const withLines = codeOptions({ code: { lines: true } })
  assert.equal(withLines.optimize, 0)
  assert.equal(withLines.lines, true)
  // the user's object itself is not changed
  const custom = { code: { lines: true } }
  effectiveAjvOptions(custom)
  assert.deepEqual(custom, { code: { lines: true } })
})

test('the option reaches Ajv through the server option, and validation answers the same with and without the pass', async (t) => {
  const schema = {
    body: {
      type: 'object',
      required: ['name', 'age'],
      additionalProperties: false,
      properties: { name: { type: 'string', maxLength: 5 }, age: { type: 'integer', minimum: 0 }, tags: { type: 'array', items: { type: 'string' }, default: [] } }
    }
  }
  const answers: string[][] = []
  for (const customOptions of [undefined, { code: { optimize: true } }]) {
    const app = trellis({ logger: false, ajv: customOptions === undefined ? undefined : { customOptions } })
    t.after(() => app.close())
    app.post('/', { schema }, async (request) => request.body)
    await app.ready()
    const seen: string[] = []
    for (const payload of [{ name: 'ann', age: '7', extra: 1 }, { name: 'toolongname', age: 1 }, { name: 'a' }, { name: 'a', age: -1 }, 'not json']) {
      const res = await app.inject({ method: 'POST', url: '/', payload })
      seen.push(`${res.statusCode} ${res.body}`)
    }
    answers.push(seen)
  }
  assert.equal(answers[0][0], '200 {"name":"ann","age":7,"tags":[]}')
  assert.match(answers[0][1], /^400 .*must NOT have more than 5 characters/)
  assert.deepEqual(answers[0], answers[1])
})

test('an invalid schema still fails at ready() with the default options', async () => {
  const app = trellis({ logger: false })
  app.post('/', { schema: { body: { type: 'object', properties: { a: { type: 'strnig' } } } } }, async () => 'x')
  await assert.rejects(app.ready(), /type must be JSON type|must be equal to one of the allowed values/)
})

test('the default compiler lookup returns the same compiler for the same inputs, and tolerates option values that are not objects', () => {
  const shared = { user: { $id: 'user', type: 'object' } }
  const ajv = { customOptions: {}, plugins: [] }
  assert.equal(createDefaultValidatorCompiler(shared, ajv), createDefaultValidatorCompiler(shared, ajv))
  const other = { user: { $id: 'user', type: 'object', properties: { a: { type: 'integer' } } } }
  assert.notEqual(createDefaultValidatorCompiler(other, ajv), createDefaultValidatorCompiler(shared, ajv), 'another shared schema: another compiler')
  for (const odd of [null, 'x', 5]) {
    assert.equal(typeof createDefaultValidatorCompiler({}, { customOptions: odd as never }), 'function')
  }
})
