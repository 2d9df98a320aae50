// Fastify 4.3's type-provider interface with the real provider packages for Fastify 4
// (@fastify/type-provider-typebox 4.x, @fastify/type-provider-json-schema-to-ts 3.x), and
// JSON Schema and TypeBox giving the same types with trellis's own inference.
import trellis, { type FastifyTypeProvider } from 'trellis'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { JsonSchemaToTsProvider } from '@fastify/type-provider-json-schema-to-ts'
import { expectType, assertType, type Same } from './expect.js'

const app = trellis()

// ---- TypeBox provider, as Fastify code writes it
const typebox = app.withTypeProvider<TypeBoxTypeProvider>()
typebox.post('/tb', {
  schema: {
    body: Type.Object({ name: Type.String(), tags: Type.Optional(Type.Array(Type.String())) }),
    querystring: Type.Object({ page: Type.Integer() }),
    response: { 200: Type.Object({ id: Type.Number() }), 400: Type.String() }
  }
}, async (request, reply) => {
  expectType<string>()(request.body.name)
  expectType<string[] | undefined>()(request.body.tags)
  expectType<number>()(request.query.page)
  reply.code(400).send('bad') // per code with a provider too
  // @ts-expect-error provider: 400 replies are strings
  reply.code(400).send({ id: 1 })
  return { id: 1 }
})
typebox.get('/tb-bad', { schema: { response: { 200: Type.Object({ id: Type.Number() }) } } },
  // @ts-expect-error provider: id is a number
  async () => ({ id: 'x' }))
// inside a plugin of the provider-typed instance, TypeBox schemas are still typed (trellis's inference takes their static type)
typebox.register(async (child) => {
  child.get('/tb-child', { schema: { querystring: Type.Object({ q: Type.String() }) } }, async (request) => {
    expectType<string>()(request.query.q)
  })
})

// ---- json-schema-to-ts provider (needs `as const`, as with Fastify)
app.withTypeProvider<JsonSchemaToTsProvider>().get('/jsts', {
  schema: {
    querystring: { type: 'object', properties: { q: { type: 'string' }, n: { type: 'integer' } }, required: ['q'] } as const,
    response: { 200: { type: 'object', properties: { hits: { type: 'array', items: { type: 'string' } } }, required: ['hits'] } as const }
  }
}, async (request) => {
  expectType<string>()(request.query.q)
  expectType<number | undefined>()(request.query.n)
  // @ts-expect-error json-schema-to-ts provider: q is a string
  const q: number = request.query.q
  void q
  return { hits: [request.query.q] }
})

// ---- a provider of one's own (Fastify 4.3's interface): it maps every schema
interface NumberProvider extends FastifyTypeProvider { output: number }
app.withTypeProvider<NumberProvider>().get('/num', { schema: { body: { type: 'string' } } }, async (request) => {
  expectType<number>()(request.body)
})

// ---- JSON Schema and TypeBox give the same types with trellis's own inference (no provider)
const jsonBody = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' }, role: { enum: ['admin', 'user'] }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['name', 'role'],
  additionalProperties: false
} as const
const typeboxBody = Type.Object({
  name: Type.String(),
  age: Type.Optional(Type.Integer()),
  role: Type.Union([Type.Literal('admin'), Type.Literal('user')]),
  tags: Type.Optional(Type.Array(Type.String()))
}, { additionalProperties: false })
app.post('/json', { schema: { body: jsonBody } }, async (jsonRequest) => {
  app.post('/typebox', { schema: { body: typeboxBody } }, async (typeboxRequest) => {
    assertType<Same<typeof jsonRequest.body, typeof typeboxRequest.body>>()
    expectType<'admin' | 'user'>()(typeboxRequest.body.role)
    expectType<'admin' | 'user'>()(jsonRequest.body.role)
  })
})
