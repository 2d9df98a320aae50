// Route methods infer request and reply types from the schema written in the call (ES module).
// Compiled, not run (test/types/inference.test.ts).
import trellis, { type TrellisInstance } from 'trellis'
import { expectType, assertType, type Equal, type Same } from './expect.js'

const app = trellis()

// ---- every request part, from a plain literal (no `as const`)
app.post('/users/:id', {
  schema: {
    body: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'integer' } }, required: ['name'] },
    querystring: { type: 'object', properties: { verbose: { type: 'boolean' }, page: { type: 'integer' } } },
    params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
    headers: { type: 'object', properties: { 'X-Api-Key': { type: 'string' } }, required: ['X-Api-Key'] }
  }
}, async (request) => {
  expectType<string>()(request.body.name)
  expectType<number | undefined>()(request.body.age)
  expectType<boolean | undefined>()(request.query.verbose)
  expectType<number>()(request.params.id) // coerced: an integer param is a number
  expectType<string>()(request.headers['x-api-key']) // header names are lowercased
  expectType<string | undefined>()(request.headers['content-type']) // the other headers stay typed
  // @ts-expect-error body.name is a string
  const n: number = request.body.name
  // @ts-expect-error params.id is a number, not a string
  request.params.id.toUpperCase()
  void n
})

// ---- the shorthand form of a part schema (properties at the top level)
app.get('/search', { schema: { querystring: { q: { type: 'string' }, limit: { type: 'integer' } } } }, async (request) => {
  expectType<string | undefined>()(request.query.q)
  expectType<number | undefined>()(request.query.limit)
})

// ---- no schema: unknown, never any
app.get('/plain', async (request) => {
  assertType<Equal<typeof request.body, unknown>>()
  assertType<Equal<typeof request.query, unknown>>()
  assertType<Equal<typeof request.params, unknown>>()
  // @ts-expect-error an unknown body must be narrowed before use
  void request.body.anything
  return { anything: 'goes' }
})

// ---- the value a handler returns: one of the 2xx responses
app.get('/item', {
  schema: {
    response: {
      200: { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' } }, required: ['id', 'title'], additionalProperties: false },
      201: { type: 'object', properties: { created: { type: 'boolean' } }, required: ['created'], additionalProperties: false },
      404: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] }
    }
  }
}, async (request, reply) => {
  if (request.id === 'a') return { created: true }
  if (request.id === 'b') return reply.code(404).send({ message: 'not here' }) // the reply itself may be returned
  if (request.id === 'c') { reply.code(201).send({ created: true }); return }
  return { id: 1, title: 'one' }
})
app.get('/item-wrong-field', {
  schema: { response: { 200: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false } } }
// @ts-expect-error a wrong response field: id must be a number
}, async () => ({ id: 'one' }))
app.get('/item-404-body', {
  schema: { response: { 200: { type: 'string' }, 404: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } } }
// @ts-expect-error the handler's return value is a 2xx response, not the 404 one
}, async () => ({ message: 'x' }))

// ---- reply.code(c).send(x) per declared code; '2xx' and 'default'
app.get('/codes', {
  schema: {
    response: {
      '2xx': { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
      404: { type: 'string' },
      '5xx': { type: 'object', properties: { error: { type: 'string' } }, required: ['error'] }
    }
  }
}, async (_request, reply) => {
  reply.code(200).send({ ok: true })
  reply.code(204).send({ ok: false }) // 204 is covered by '2xx'
  reply.code(404).send('gone')
  reply.code(503).send({ error: 'down' })
  reply.status(404).send('gone')
  // @ts-expect-error 404 replies are strings
  reply.code(404).send({ ok: true })
  // @ts-expect-error a code the schema lacks
  reply.code(418)
  // @ts-expect-error 5xx replies need `error`
  reply.code(500).send({ ok: true })
  reply.send('gone') // before a code is chosen: any declared response (the status may be set elsewhere)
})
app.get('/default', {
  schema: { response: { 200: { type: 'integer' }, default: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] } } }
}, async (_request, reply) => {
  reply.code(418).send({ message: 'any code goes to default' })
  reply.code(200).send(1)
  // @ts-expect-error the default response is an object
  reply.code(500).send(1)
  return 2
})

// ---- explicit route generics win over inference
app.post<{ Body: { fromGeneric: true }; Reply: string }>('/generic', {
  schema: { body: { type: 'object', properties: { fromSchema: { type: 'string' } } }, response: { 200: { type: 'integer' } } }
}, async (request, reply) => {
  expectType<{ fromGeneric: true }>()(request.body)
  reply.code(418).send('any code with a Reply generic')
  return 'a string, as the Reply generic says'
})

// ---- route(), with the schema and the handler in one object
app.route({
  method: 'PUT',
  url: '/things/:slug',
  schema: {
    params: { type: 'object', properties: { slug: { type: 'string' } }, required: ['slug'] },
    body: { type: 'array', items: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] } },
    response: { 200: { type: 'array', items: { type: 'string' } } }
  },
  preHandler: async (request) => { expectType<string>()(request.params.slug) }, // route hooks see the same types
  handler: async (request) => {
    expectType<string>()(request.params.slug)
    return request.body.map((item) => String(item.n))
  }
})
// the third shorthand form: options with the handler inside
app.patch('/inline', {
  schema: { body: { type: 'object', properties: { on: { type: 'boolean' } }, required: ['on'] } },
  handler: async (request) => { expectType<boolean>()(request.body.on) }
})

// ---- nothing accumulates in the instance type
const after = app.get('/x', { schema: { body: { type: 'string' } } }, async () => {})
assertType<Equal<typeof after, TrellisInstance>>()
const again = after.post('/y', { schema: { querystring: { type: 'object', properties: { z: { type: 'string' } } } } }, async () => {})
assertType<Equal<typeof again, TrellisInstance>>()

// ---- decorators: an undeclared one is an error on the instance, unknown on requests
// @ts-expect-error an unknown decorator on the instance
app.notDecorated()
app.get('/deco', async (request) => {
  // @ts-expect-error an unknown request decorator is `unknown`, so it cannot be called
  request.user.name()
})
