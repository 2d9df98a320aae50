/**
 * Validation errors through the server: the 400 payload, schemaErrorFormatter (factory option,
 * setSchemaErrorFormatter — encapsulated, `this` is the instance — and the route option),
 * attachValidation, setErrorHandler with validation/validationContext, ajv-i18n in a handler.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { trellis, echo } from './helpers'

const localize = require('ajv-i18n')
const ajvErrors = require('ajv-errors')

const schema = {
  params: { id: { type: 'integer' } },
  body: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  querystring: { q: { type: 'integer' } },
  headers: { 'x-n': { type: 'integer' } }
}
const route = (app: any, url = '/items/:id', extra: Record<string, unknown> = {}) => app.post(url, { schema, ...extra }, echo)
const bad: Record<string, { url: string, payload: unknown, headers?: Record<string, string> }> = {
  params: { url: '/items/x', payload: { name: 'a' } },
  body: { url: '/items/1', payload: {} },
  querystring: { url: '/items/1?q=x', payload: { name: 'a' } },
  headers: { url: '/items/1', payload: { name: 'a' }, headers: { 'x-n': 'x' } }
}

describe('the 400 payload', () => {
  it('{ statusCode, error, message } with a message prefixed by the part', async () => {
    const app = trellis()
    route(app)
    const expected: Record<string, string> = {
      params: 'params/id must be integer',
      body: "body must have required property 'name'",
      querystring: 'querystring/q must be integer',
      headers: 'headers/x-n must be integer'
    }
    for (const [part, req] of Object.entries(bad)) {
      const res = await app.inject({ method: 'POST', ...req } as never)
      assert.equal(res.statusCode, 400, part)
      assert.match(String(res.headers['content-type']), /^application\/json/)
      assert.deepEqual(res.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: expected[part] }, part)
    }
  })
})

describe('schemaErrorFormatter', () => {
  it('factory option: receives (errors, dataVar) with the part name, `this` is the server, its Error is answered', async () => {
    const calls: Array<[unknown[], string, unknown]> = []
    let app: any = null
    app = trellis({
      schemaErrorFormatter (errors: any[], dataVar: string) {
        calls.push([errors, dataVar, this])
        return new Error(`${dataVar} is invalid: ${errors.map((e) => e.keyword).join(',')}`)
      }
    })
    route(app)
    for (const part of ['params', 'body', 'querystring', 'headers']) {
      const res = await app.inject({ method: 'POST', ...bad[part] })
      assert.equal(res.statusCode, 400)
      assert.match(res.json().message, new RegExp(`^${part} is invalid: (type|required)$`))
    }
    assert.deepEqual(calls.map((c) => c[1]), ['params', 'body', 'querystring', 'headers'])
    assert.ok(calls.every((c) => Array.isArray(c[0]) && c[0].length === 1 && c[2] === app))
  })

  it('setSchemaErrorFormatter is encapsulated and `this` is the instance it was set on', async () => {
    const app = trellis()
    let self: unknown
    let child: unknown
    app.register(async (instance) => {
      child = instance
      instance.decorate('label', 'child')
      instance.setSchemaErrorFormatter(function (this: any, errors: any[], dataVar: string) {
        self = this
        return new Error(`${this.label}: ${dataVar} ${errors[0].instancePath}`)
      })
      route(instance, '/child/:id')
      instance.register(async (grandchild) => { route(grandchild, '/grandchild/:id') })
    })
    app.register(async (sibling) => { route(sibling, '/sibling/:id') })
    route(app, '/root/:id')
    assert.equal((await app.inject({ method: 'POST', url: '/child/x', payload: {} })).json().message, 'child: params /id')
    assert.equal(self, child)
    assert.equal((await app.inject({ method: 'POST', url: '/grandchild/x', payload: {} })).json().message, 'child: params /id')
    assert.equal((await app.inject({ method: 'POST', url: '/sibling/x', payload: {} })).json().message, 'params/id must be integer')
    assert.equal((await app.inject({ method: 'POST', url: '/root/x', payload: {} })).json().message, 'params/id must be integer')
  })

  it('a child\'s formatter replaces the factory option for its routes only', async () => {
    const app = trellis({ schemaErrorFormatter: (_e: unknown[], v: string) => new Error(`root formatter ${v}`) })
    app.register(async (child) => {
      child.setSchemaErrorFormatter((_e, v) => new Error(`child formatter ${v}`))
      route(child, '/c/:id')
    })
    route(app, '/r/:id')
    assert.equal((await app.inject({ method: 'POST', url: '/c/1', payload: {} })).json().message, 'child formatter body')
    assert.equal((await app.inject({ method: 'POST', url: '/r/1', payload: {} })).json().message, 'root formatter body')
  })

  it('the route option schemaErrorFormatter wins', async () => {
    const app = trellis({ schemaErrorFormatter: () => new Error('server') })
    route(app, '/r/:id', { schemaErrorFormatter: () => new Error('route') })
    assert.equal((await app.inject({ method: 'POST', url: '/r/1', payload: {} })).json().message, 'route')
  })

  it('a schemaErrorFormatter must be a synchronous function (factory option and setSchemaErrorFormatter): FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN (4.29)', () => {
    const notFn = { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', message: "schemaErrorFormatter option should be a non async function. Instead got 'number'." }
    const isAsync = { code: 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', message: "schemaErrorFormatter option should be a non async function. Instead got 'AsyncFunction'." }
    assert.throws(() => trellis({ schemaErrorFormatter: 500 } as never), notFn)
    assert.throws(() => trellis({ schemaErrorFormatter: async () => new Error('x') } as never), isAsync)
    const app = trellis()
    assert.throws(() => app.setSchemaErrorFormatter(500 as never), notFn)
    assert.throws(() => app.setSchemaErrorFormatter((async () => new Error('x')) as never), isAsync)
  })

  it('a formatter that returns no Error or throws is a 500, and the server keeps answering', async () => {
    const app = trellis()
    route(app, '/notError/:id', { schemaErrorFormatter: () => 'oops' })
    route(app, '/throws/:id', { schemaErrorFormatter: () => { throw new Error('formatter broke') } })
    const notError = await app.inject({ method: 'POST', url: '/notError/1', payload: {} })
    assert.equal(notError.statusCode, 500)
    assert.equal(notError.json().code, 'FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_ERROR')
    assert.equal((await app.inject({ method: 'POST', url: '/throws/1', payload: {} })).statusCode, 500)
    assert.equal((await app.inject({ method: 'POST', url: '/throws/1', payload: { name: 'ok' } })).statusCode, 200)
  })
})

describe('attachValidation', () => {
  it('the handler runs with request.validationError (raw errors, validationContext) and decides the response', async () => {
    const app = trellis()
    app.post('/soft/:id', { schema, attachValidation: true }, async (req: any, reply: any) => {
      if (req.validationError) {
        const e = req.validationError
        return reply.code(422).send({ message: e.message, statusCode: e.statusCode, context: e.validationContext, keywords: e.validation.map((v: any) => v.keyword) })
      }
      return { ok: true, id: req.params.id }
    })
    const res = await app.inject({ method: 'POST', url: '/soft/1', payload: {} })
    assert.equal(res.statusCode, 422)
    assert.deepEqual(res.json(), { message: "body must have required property 'name'", statusCode: 400, context: 'body', keywords: ['required'] })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/soft/2', payload: { name: 'a' } })).json(), { ok: true, id: 2 })
  })

  it('preHandler hooks run too, and the error handler is not involved', async () => {
    const app = trellis()
    let handlerCalls = 0
    let preHandler = 0
    app.setErrorHandler((err, _req, reply) => { handlerCalls++; reply.send(err) })
    app.addHook('preHandler', async () => { preHandler++ })
    app.post('/', { schema: { body: schema.body }, attachValidation: true }, async (req: any) => ({ has: req.validationError !== undefined }))
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: {} })).json(), { has: true })
    assert.equal(handlerCalls, 0)
    assert.equal(preHandler, 1)
  })
})

describe('validation errors in setErrorHandler', () => {
  it('the handler gets statusCode 400, validation (raw errors) and validationContext, and may answer anything', async () => {
    const app = trellis()
    const seen: Array<Record<string, unknown>> = []
    app.setErrorHandler(function (error: any, _request, reply) {
      if (error.validation) {
        seen.push({ statusCode: error.statusCode, context: error.validationContext, validation: error.validation, thisIsApp: this === app })
        return reply.code(422).send({ problem: error.validationContext })
      }
      reply.send(error)
    })
    route(app)
    for (const part of ['params', 'body', 'querystring', 'headers']) {
      const res = await app.inject({ method: 'POST', ...bad[part] } as never)
      assert.equal(res.statusCode, 422)
      assert.deepEqual(res.json(), { problem: part })
    }
    assert.deepEqual(seen.map((s) => s.context), ['params', 'body', 'querystring', 'headers'])
    for (const s of seen) {
      assert.equal(s.statusCode, 400)
      assert.equal(s.thisIsApp, true)
      const v = s.validation as Array<Record<string, unknown>>
      assert.equal(v.length, 1)
      assert.equal(typeof v[0].keyword, 'string')
      assert.equal(typeof v[0].instancePath, 'string')
    }
  })

  it('a child\'s error handler handles its routes\' validation errors; others keep the default', async () => {
    const app = trellis()
    app.register(async (child) => {
      child.setErrorHandler((error: any, _req, reply) => { reply.code(418).send({ child: error.validationContext }) })
      route(child, '/c/:id')
    })
    route(app, '/r/:id')
    assert.deepEqual((await app.inject({ method: 'POST', url: '/c/1', payload: {} })).json(), { child: 'body' })
    assert.equal((await app.inject({ method: 'POST', url: '/r/1', payload: {} })).statusCode, 400)
  })

  it('a custom validator\'s { error } reaches the handler as error.validation', async () => {
    const app = trellis()
    let got: any
    app.setErrorHandler((error: any, _req, reply) => { got = error; reply.code(400).send({ message: error.message }) })
    app.post('/', {
      schema: { body: { any: 'thing' } },
      validatorCompiler: () => (data: any) => data.ok === true ? { value: data } : { error: [{ instancePath: '/ok', message: 'must be true', keyword: 'custom' }] as never }
    }, echo)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { ok: 1 } })).json(), { message: 'body/ok must be true' })
    assert.equal(got.validationContext, 'body')
    assert.equal(got.statusCode, 400)
    assert.deepEqual(got.validation, [{ instancePath: '/ok', message: 'must be true', keyword: 'custom' }])
  })

  it('ajv-i18n localizes error.validation inside the handler', async () => {
    const app = trellis()
    app.setErrorHandler((error: any, _req, reply) => {
      if (error.validation) {
        localize.de(error.validation)
        return reply.code(400).send({ context: error.validationContext, messages: error.validation.map((e: any) => e.message) })
      }
      reply.send(error)
    })
    app.post('/', { schema: { body: { type: 'object', properties: { n: { type: 'integer' } }, required: ['name'] } } }, echo)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: {} })).json(), { context: 'body', messages: ['muss das erforderliche Attribut name enthalten'] })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { name: 1, n: 'x' } })).json(), { context: 'body', messages: ['muss sein: integer'] })
  })

  it('ajv-errors messages (allErrors: true) reach the handler and the default payload', async () => {
    const app = trellis({ ajv: { customOptions: { allErrors: true }, plugins: [ajvErrors] } })
    app.register(async (child) => {
      child.setErrorHandler((error: any, _req, reply) => { reply.code(400).send({ errors: error.validation.map((e: any) => e.message) }) })
      child.post('/h', {
        schema: { body: { type: 'object', properties: { age: { type: 'integer', minimum: 18, errorMessage: { minimum: 'adults only' } } }, required: ['age'], errorMessage: { required: { age: 'age is required!' } } } }
      }, echo)
    })
    app.post('/d', { schema: { body: { type: 'object', required: ['age'], errorMessage: { required: { age: 'age is required!' } } } } }, echo)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/h', payload: { age: 3 } })).json(), { errors: ['adults only'] })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/h', payload: {} })).json(), { errors: ['age is required!'] })
    assert.deepEqual((await app.inject({ method: 'POST', url: '/d', payload: {} })).json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body age is required!' })
  })
})
