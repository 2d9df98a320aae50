// The demo application as a plugin module (what `trellis start`, `trellis build` and
// `trellis build --target worker` take; examples/demo.mjs serves it with listen()): the spec's
// worked scenario (encapsulation), a validated POST route and a response schema that drops an
// undeclared property. Options: `apiKey` (the bearer key of context A; default: API_KEY, else the
// demo key) and `docsPage` (Swagger UI at /documentation; default true).
import bearerAuth from '../dist/entry/bearer-auth.mjs'
import openapi from '../dist/entry/openapi.mjs'

export const DEMO_KEY = 'demo-key-change-me'

export default async function demo (app, opts = {}) {
  const apiKey = opts.apiKey ?? (globalThis.process?.env?.API_KEY || DEMO_KEY)
  // The OpenAPI document of every route below (read from the route table at ready(), so it can be
  // registered first or last): GET /documentation/json, /documentation/yaml, and the docs page.
  app.register(openapi, {
    ui: opts.docsPage !== false,
    openapi: {
      info: { title: 'trellis demo', version: '1.0.0', description: 'The spec\'s worked scenario, a validated POST route and a response schema.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } }
    }
  })
  const view = (req) => ({ answer: req.answer, foo: req.foo, bar: req.bar })

  // Root: visible to every context.
  app.decorateRequest('answer', 42)
  // A shared schema: the response of /one, /two and /three (a component of the OpenAPI document).
  app.addSchema({
    $id: 'View',
    type: 'object',
    description: 'The request decorators a context sees',
    properties: { answer: { type: 'integer' }, foo: { type: 'string' }, bar: { type: 'string' } }
  })

  // Context A: bearer auth protects /one only (trellis/bearer-auth is wrapped, so it lands in A).
  app.register(async function contextA (a) {
    a.register(bearerAuth, { keys: [apiKey] })
    a.get('/one', { schema: { tags: ['contexts'], summary: 'Context A (bearer key needed)', security: [{ bearer: [] }], response: { 200: { $ref: 'View#' } } } }, async (req) => view(req))
  })

  // Context B with grandchild C. C is a plain plugin: its decorator `bar` stays inside C.
  // (Wrap contextC with `fp` from 'trellis/plugin' and /two would show `bar` too.)
  app.register(async function contextB (b) {
    b.decorateRequest('foo', 'foo')
    b.get('/two', { schema: { tags: ['contexts'], summary: 'Context B', response: { 200: { $ref: 'View#' } } } }, async (req) => view(req))
    b.register(async function contextC (c) {
      c.decorateRequest('bar', 'bar')
      c.get('/three', { schema: { tags: ['contexts'], summary: 'Context C, inside B', response: { 200: { $ref: 'View#' } } } }, async (req) => view(req))
    })
  })

  // Validation: required fields, coercion ("9.5" -> 9.5) and defaults (quantity, tags).
  app.post('/items', {
    schema: {
      tags: ['items'],
      summary: 'Create an item',
      body: {
        type: 'object',
        required: ['name', 'price'],
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 50 },
          price: { type: 'number', minimum: 0 },
          quantity: { type: 'integer', minimum: 1, default: 1 },
          tags: { type: 'array', items: { type: 'string' }, default: [] }
        }
      },
      response: {
        201: {
          description: 'The created item',
          type: 'object',
          properties: {
            name: { type: 'string' },
            price: { type: 'number' },
            quantity: { type: 'integer' },
            tags: { type: 'array', items: { type: 'string' } },
            total: { type: 'number' }
          }
        }
      }
    }
  }, async (req, reply) => {
    const { name, price, quantity, tags } = req.body
    reply.code(201)
    return { name, price, quantity, tags, total: price * quantity }
  })

  // Serialization: the stored user has a password hash; the response schema does not declare it,
  // so it never leaves the server. `id` is coerced from the path by the params schema.
  const users = new Map([[1, { id: 1, name: 'Ada', passwordHash: '$2b$10$not-for-clients' }]])
  app.get('/users/:id', {
    schema: {
      tags: ['users'],
      summary: 'Read a user (the password hash never leaves the server)',
      params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] },
      response: {
        200: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } },
        404: { description: 'No such user', type: 'object', properties: { error: { type: 'string' } } }
      }
    }
  }, async (req, reply) => {
    const user = users.get(req.params.id)
    if (user === undefined) return reply.code(404).send({ error: 'no such user' })
    return user
  })
}
