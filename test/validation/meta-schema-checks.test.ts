/**
 * Schemas are checked against the JSON Schema meta-schema in every plugin context. The default
 * compiler makes one Ajv instance per set of shared schemas; instances with the same options share
 * the first one's compiled meta-schema. An invalid route schema or shared schema in any context
 * still fails ready() with the error Ajv gives when it checks for itself, and valid schemas
 * validate as before.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { clearValidatorCompilerPool, createDefaultValidatorCompiler } from '../../src/schema/validation/index'

const BAD_TYPE = { type: 'object', properties: { a: { type: 'strin' } } }
const BAD_SHARED = { $id: 'bad', type: 'object', properties: { a: { type: 'string', minLength: 'x' } } }

/** An app with `contexts` sibling plugins, each adding its own shared schema (so its own Ajv instance) and a route using it. */
function app (contexts: number, last: (child: any) => void): any {
  const server = trellis({ logger: false })
  for (let i = 0; i < contexts; i++) {
    server.register(async (child: any) => {
      child.addSchema({ $id: 'item' + i, type: 'object', required: ['n'], properties: { n: { type: 'integer', maximum: 10 + i } } })
      child.post('/r' + i, { schema: { body: { $ref: 'item' + i + '#' } } }, async (req: any) => req.body)
      if (i === contexts - 1) last(child)
    })
  }
  return server
}

async function readyError (server: any): Promise<Error & { code?: string }> {
  try {
    await server.ready()
  } catch (err) {
    return err as Error & { code?: string }
  }
  assert.fail('ready() resolved')
}

test('an invalid route schema in the fourth context fails ready() as it does alone', async () => {
  clearValidatorCompilerPool()
  const alone = await readyError(app(1, (child) => child.post('/bad', { schema: { body: BAD_TYPE } }, async () => 'x')))
  clearValidatorCompilerPool()
  const fourth = await readyError(app(4, (child) => child.post('/bad', { schema: { body: BAD_TYPE } }, async () => 'x')))
  assert.equal(fourth.code, 'FST_ERR_SCH_VALIDATION_BUILD')
  assert.match(fourth.message, /^Failed building the validation schema for POST: \/bad, due to error schema is invalid: data\/properties\/a\/type must be equal to one of the allowed values/)
  assert.equal(fourth.message, alone.message)
})

test('an invalid shared schema in the fourth context fails ready() as it does alone', async () => {
  clearValidatorCompilerPool()
  const alone = await readyError(app(1, (child) => { child.addSchema(BAD_SHARED) }))
  clearValidatorCompilerPool()
  const fourth = await readyError(app(4, (child) => { child.addSchema(BAD_SHARED) }))
  assert.match(fourth.message, /schema is invalid: data\/properties\/a\/minLength must be integer/)
  assert.equal(fourth.message, alone.message)
  assert.equal(fourth.code, alone.code)
})

test('valid schemas in several contexts validate their requests', async () => {
  clearValidatorCompilerPool()
  const server = app(4, () => {})
  for (let i = 0; i < 4; i++) {
    const ok = await server.inject({ method: 'POST', url: '/r' + i, payload: { n: '5' } })
    assert.equal(ok.statusCode, 200)
    assert.deepEqual(ok.json(), { n: 5 })
    const bad = await server.inject({ method: 'POST', url: '/r' + i, payload: { n: 11 + i } })
    assert.equal(bad.statusCode, 400)
    assert.equal(bad.json().message, `body/n must be <= ${10 + i}`)
  }
  await server.close()
})

test('a later Ajv instance checks against the meta-schema, sets its own errors, and reports like the first', () => {
  clearValidatorCompilerPool()
  const first = createDefaultValidatorCompiler({ a: { $id: 'a', type: 'string' } }).ajv
  const later = createDefaultValidatorCompiler({ b: { $id: 'b', type: 'string' } }).ajv
  assert.notEqual(first, later)
  assert.equal(later.validateSchema({ type: 'integer', maximum: 'ten' }), false)
  assert.equal(later.errorsText(), 'data/maximum must be number')
  assert.equal(later.validateSchema({ type: 'integer', maximum: 10 }), true)
  assert.equal(later.errors, null)
  assert.throws(() => later.compile({ type: 'object', required: 'a' }), { message: 'schema is invalid: data/required must be array' })
  assert.throws(() => first.compile({ type: 'object', required: 'a' }), { message: 'schema is invalid: data/required must be array' })
})

test('a schema naming its own $schema is checked by its own instance (a shared schema may be a meta-schema)', () => {
  clearValidatorCompilerPool()
  createDefaultValidatorCompiler({ a: { $id: 'a', type: 'string' } })
  const later = createDefaultValidatorCompiler({ b: { $id: 'b', type: 'string' } }).ajv
  // `b` is this instance's shared schema (a string schema), so the schema object itself must be a string
  assert.throws(() => later.compile({ $schema: 'b', type: 'string' }), { message: 'schema is invalid: data must be string' })
  assert.throws(() => later.compile({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'strin' }), /schema is invalid: data\/type must be equal to one of the allowed values/)
})
