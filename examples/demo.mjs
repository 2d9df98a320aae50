// trellis demo: the spec's worked scenario (encapsulation), a validated POST route and a response
// schema that drops an undeclared property. Run with `npm start` (builds first), then paste the
// printed curl lines, or open the docs page (/documentation, Swagger UI served from the local
// swagger-ui-dist package) and use "try it out". Env: PORT (default 3000; 0 = any free port), HOST (default 127.0.0.1),
// API_KEY (the bearer key of context A; a demo key is used and printed when unset).
import trellis from '../dist/entry/index.mjs'
import bearerAuth from '../dist/entry/bearer-auth.mjs'
import openapi from '../dist/entry/openapi.mjs'

const DEMO_KEY = 'demo-key-change-me'
const apiKey = process.env.API_KEY || DEMO_KEY
const port = process.env.PORT === undefined || process.env.PORT === '' ? 3000 : Number(process.env.PORT)
const host = process.env.HOST || '127.0.0.1'

const app = trellis()

// The OpenAPI document of every route below (read from the route table at ready(), so it can be
// registered first or last): GET /documentation/json, /documentation/yaml, and the docs page.
app.register(openapi, {
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

await app.listen({ port, host })
const address = app.server.address()
const base = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`

if (apiKey === DEMO_KEY) console.log(`API_KEY not set: using the demo key "${DEMO_KEY}"`)
console.log('routes:')
console.log(app.printRoutes())
console.log('try:')
const q = (s) => `'${s.replace(/'/g, "'\\''")}'`
const json = "-H 'content-type: application/json'"
for (const line of [
  `curl -i ${base}/one                                  # 401: missing authorization header`,
  `curl -i -H ${q(`authorization: Bearer ${apiKey}`)} ${base}/one   # 200 {"answer":42}`,
  `curl -i ${base}/two                                  # 200 {"answer":42,"foo":"foo"}`,
  `curl -i ${base}/three                                # 200 {"answer":42,"foo":"foo","bar":"bar"}`,
  `curl -i ${json} -d ${q('{"name":"pen","price":"9.5"}')} ${base}/items   # 201, price coerced, quantity/tags defaulted`,
  `curl -i ${json} -d ${q('{"price":3}')} ${base}/items                 # 400: body must have required property 'name'`,
  `curl -i ${base}/users/1                              # 200 {"id":1,"name":"Ada"} (passwordHash dropped)`,
  `curl -s ${base}/documentation/json                   # the OpenAPI 3.1 document (also /documentation/yaml)`
]) console.log('  ' + line)
console.log(`docs: ${base}/documentation`)
console.log(`listening on ${base}`)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1))
  })
}
