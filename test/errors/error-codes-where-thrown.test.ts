/**
 * The error codes Fastify 4.5-4.29 gave to situations 4.3 answered with plain Errors (or not at
 * all): each is thrown (or answered) where 4.29 throws it, with its class, code and message.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { errorCodes } from '../../src/index'
import { listen, request } from '../helpers'

const E = errorCodes as Record<string, any>

function throwsCode (fn: () => unknown, code: string, message?: string | RegExp): void {
  assert.throws(fn, (err: any) => {
    assert.ok(err instanceof E[code], `${String(err?.code)} is not ${code}: ${String(err?.message)}`)
    assert.equal(err.code, code)
    if (typeof message === 'string') assert.equal(err.message, message)
    else if (message !== undefined) assert.match(err.message, message)
    return true
  })
}

test('factory options: FST_ERR_OPTIONS_NOT_OBJ, FST_ERR_QSP_NOT_FN, FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN, FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ / _NOT_ARR', () => {
  throwsCode(() => trellis(42 as never), 'FST_ERR_OPTIONS_NOT_OBJ', 'Options must be an object')
  throwsCode(() => trellis({ querystringParser: 'qs' as never }), 'FST_ERR_QSP_NOT_FN', "querystringParser option should be a function, instead got 'string'")
  throwsCode(() => trellis({ schemaController: { bucket: 1 } } as never), 'FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN', "schemaController.bucket option should be a function, instead got 'number'")
  throwsCode(() => trellis({ ajv: { customOptions: [] } } as never), 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ', "ajv.customOptions option should be an object, instead got 'object'")
  throwsCode(() => trellis({ ajv: { plugins: 'x' } } as never), 'FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR', "ajv.plugins option should be an array, instead got 'string'")
  for (const err of [new E.FST_ERR_OPTIONS_NOT_OBJ(), new E.FST_ERR_QSP_NOT_FN('x')]) assert.ok(err instanceof TypeError)
})

test('schema error formatter: FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN for a non-function or an async function', () => {
  throwsCode(() => trellis({ schemaErrorFormatter: 'x' as never }), 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', "schemaErrorFormatter option should be a non async function. Instead got 'string'.")
  const app = trellis()
  throwsCode(() => app.setSchemaErrorFormatter((async () => new Error('x')) as never), 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', /Instead got 'AsyncFunction'/)
})

test('routes: FST_ERR_ROUTE_METHOD_INVALID, _METHOD_NOT_SUPPORTED, _OPTIONS_NOT_OBJ, _DUPLICATED_HANDLER, _HANDLER_NOT_FN, _BODY_LIMIT_OPTION_NOT_INT, _BODY_VALIDATION_SCHEMA_NOT_SUPPORTED', () => {
  const app: any = trellis()
  const handler = async (): Promise<string> => 'x'
  throwsCode(() => app.route({ method: 1, url: '/a', handler }), 'FST_ERR_ROUTE_METHOD_INVALID', 'Provided method is invalid!')
  throwsCode(() => app.route({ method: ['GET', 1], url: '/a', handler }), 'FST_ERR_ROUTE_METHOD_INVALID')
  throwsCode(() => app.route({ method: 'BREW', url: '/a', handler }), 'FST_ERR_ROUTE_METHOD_NOT_SUPPORTED', 'BREW method is not supported.')
  throwsCode(() => app.get('/a', 'options', handler), 'FST_ERR_ROUTE_OPTIONS_NOT_OBJ', 'Options for "GET:/a" route must be an object')
  throwsCode(() => app.get('/a', { handler }, handler), 'FST_ERR_ROUTE_DUPLICATED_HANDLER', 'Duplicate handler for "GET:/a" route is not allowed!')
  throwsCode(() => app.get('/a', { handler: 'x' }, handler), 'FST_ERR_ROUTE_HANDLER_NOT_FN')
  throwsCode(() => app.route({ method: 'GET', url: '/a', handler: 42 }), 'FST_ERR_ROUTE_HANDLER_NOT_FN')
  throwsCode(() => app.post('/a', { bodyLimit: 1.5 }, handler), 'FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT', "'bodyLimit' option must be an integer > 0. Got '1.5'")
  throwsCode(() => app.get('/a', { schema: { body: { type: 'object' } } }, handler), 'FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED', 'Body validation schema for GET:/a route is not supported!')
})

test('after start: FST_ERR_INSTANCE_ALREADY_LISTENING for routes and setters, FST_ERR_CTP_INSTANCE_ALREADY_STARTED for parsers', async () => {
  const app: any = trellis()
  await app.ready()
  throwsCode(() => app.get('/late', async () => 'x'), 'FST_ERR_INSTANCE_ALREADY_LISTENING', 'Fastify instance is already listening. Cannot add route!')
  throwsCode(() => app.setErrorHandler(() => {}), 'FST_ERR_INSTANCE_ALREADY_LISTENING', 'Fastify instance is already listening. Cannot call "setErrorHandler"!')
  throwsCode(() => app.setNotFoundHandler(() => {}), 'FST_ERR_INSTANCE_ALREADY_LISTENING', /Cannot call "setNotFoundHandler"!/)
  throwsCode(() => app.addConstraintStrategy({ name: 'x', storage () { return {} }, deriveConstraint () { return '' }, validate () {} }), 'FST_ERR_INSTANCE_ALREADY_LISTENING', /Cannot add constraint strategy!/)
  throwsCode(() => app.addContentTypeParser('text/x', (_r: unknown, _b: unknown, done: any) => done(null, 1)), 'FST_ERR_CTP_INSTANCE_ALREADY_STARTED', 'Cannot call "addContentTypeParser" when fastify instance is already started!')
  throwsCode(() => app.removeAllContentTypeParsers(), 'FST_ERR_CTP_INSTANCE_ALREADY_STARTED')
  await app.close()
})

test('setErrorHandler with a non-function: FST_ERR_ERROR_HANDLER_NOT_FN', () => {
  throwsCode(() => trellis().setErrorHandler('nope' as never), 'FST_ERR_ERROR_HANDLER_NOT_FN', 'Error Handler must be a function')
})

test('the deprecated versioning option: a route version that is not a string is FST_ERR_VERSION_CONSTRAINT_NOT_STR', () => {
  const store = new Map<string, unknown>()
  const versioning = { storage: () => ({ get: (v: string) => store.get(v) ?? null, set: (v: string, s: unknown) => { store.set(v, s) } }), deriveVersion: (req: any) => req.headers['accept-version'] }
  const app: any = trellis({ versioning } as never)
  throwsCode(() => app.get('/', { constraints: { version: 2 } }, async () => 'x'), 'FST_ERR_VERSION_CONSTRAINT_NOT_STR', 'Version constraint should be a string.')
})

test('a response schema whose keys are no status codes: FST_ERR_SCH_SERIALIZATION_BUILD caused by FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX', async () => {
  const app: any = trellis()
  app.get('/', { schema: { response: { type: 'object', properties: { a: { type: 'string' } } } } }, async () => ({ a: 'x' }))
  await assert.rejects(app.ready(), (err: any) => {
    assert.equal(err.code, 'FST_ERR_SCH_SERIALIZATION_BUILD')
    assert.match(err.message, /response schemas should be nested under a valid status code, e\.g \{ 2xx: \{ type: "object" \} \}/)
    assert.equal(err.cause?.code, 'FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX')
    return true
  })
  const ok: any = trellis()
  ok.get('/', { schema: { response: { '2XX': { type: 'object' }, default: { type: 'object' }, 404: { type: 'object' } } } }, async () => ({}))
  await ok.ready()
})

test('serializeInput(x, status, contentType) without a schema for that media type: FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN', async () => {
  const app: any = trellis()
  const schema = { response: { 200: { content: { 'application/json': { schema: { type: 'object', properties: { a: { type: 'integer' } } } } } } } }
  app.get('/', { schema }, async (_req: any, reply: any) => {
    const json = reply.serializeInput({ a: '1', b: 2 }, 200, 'application/json')
    const fn = reply.getSerializationFunction(200, 'application/json')
    let missing: any
    try { reply.serializeInput({}, 200, 'text/plain') } catch (err) { missing = err }
    // answered as 201 (no schema) so the report itself is not shaped by the 200 schema
    reply.code(201)
    return { json, viaFn: fn({ a: 3 }), none: reply.getSerializationFunction(200, 'text/plain') === undefined, code: missing?.code, message: missing?.message }
  })
  assert.deepEqual((await app.inject('/')).json(), {
    json: '{"a":1}',
    viaFn: '{"a":3}',
    none: true,
    code: 'FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN',
    message: 'Missing serialization function. Key "200:text/plain"'
  })
})

test('an error the route\'s error schema cannot serialize: 500 FST_ERR_FAILED_ERROR_SERIALIZATION naming both errors (inject and a real socket)', async () => {
  const app: any = trellis()
  const schema = { response: { 500: { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] } } }
  app.get('/', { schema }, async () => { throw new Error('boom') })
  const expected = { statusCode: 500, code: 'FST_ERR_FAILED_ERROR_SERIALIZATION', message: 'Failed to serialize an error. Error: "x" is required!. Original error: boom' }
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.deepEqual(res.json(), expected)
  const { port } = await listen(app)
  try {
    const real = await request(port)
    assert.equal(real.statusCode, 500)
    assert.deepEqual(JSON.parse(real.body), expected)
  } finally {
    await app.close()
  }
})

test('the default error payload is shaped by the status\'s JSON `content` schema (Fastify 4.29)', async () => {
  const app: any = trellis()
  const errorSchema = { type: 'object', properties: { statusCode: { type: 'integer' }, error: { type: 'string' }, message: { type: 'string' } } }
  app.post('/', {
    schema: {
      body: { type: 'object', required: ['id'], properties: { id: { type: 'string' } } },
      response: { 400: { content: { 'application/json': { schema: errorSchema } } } }
    }
  }, async () => 'ok')
  const res = await app.inject({ method: 'POST', url: '/', payload: {} })
  assert.equal(res.statusCode, 400)
  // without the schema the body would carry code: 'FST_ERR_VALIDATION'
  assert.deepEqual(res.json(), { statusCode: 400, error: 'Bad Request', message: "body must have required property 'id'" })
})
