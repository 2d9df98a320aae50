// A property with a `default` is there after validation (Ajv's `useDefaults`), so it is not
// optional in the request types; where Ajv assigns no default, it stays optional. In a reply the
// serializer writes a missing property's default, so the handler may leave it out.
// The run-time side of each rule: test/validation/http/defaults.test.ts. Compiled, not run.
import trellis from 'trellis'
import { expectType } from './expect.js'

const app = trellis()

const settings = { $id: 'settings', type: 'object', properties: { theme: { type: 'string', default: 'light' }, size: { type: 'integer' } } } as const
declare module 'trellis' {
  interface SchemaRegistry { settings: typeof settings }
}
app.addSchema(settings)

// ---- every request part
app.post('/items/:id', {
  schema: {
    querystring: { type: 'object', properties: { page: { type: 'integer', default: 1 }, q: { type: 'string' } } },
    params: { type: 'object', properties: { id: { type: 'string' }, lang: { type: 'string', default: 'en' } } },
    headers: { type: 'object', properties: { 'X-Mode': { enum: ['fast', 'safe'], default: 'fast' } } },
    body: { type: 'object', properties: { name: { type: 'string', default: 'anonymous' }, age: { type: 'integer' } } }
  }
}, async (request) => {
  expectType<number>()(request.query.page)
  expectType<string | undefined>()(request.query.q)
  expectType<string>()(request.params.lang)
  expectType<string | undefined>()(request.params.id) // not in `required`, no default
  expectType<'fast' | 'safe'>()(request.headers['x-mode'])
  expectType<string>()(request.body.name)
  expectType<number | undefined>()(request.body.age)
  // @ts-expect-error age has no default: it may be missing
  const age: number = request.body.age
  void age
})

// ---- the shorthand form and a `required` property with a default
app.get('/search', { schema: { querystring: { limit: { type: 'integer', default: 20 }, sort: { type: 'string' } } } }, async (request) => {
  expectType<number>()(request.query.limit)
  expectType<string | undefined>()(request.query.sort)
})

// ---- inside a part: nested objects, array items, allOf, $ref; not under anyOf/oneOf
app.put('/nested', {
  schema: {
    body: {
      type: 'object',
      properties: {
        // filled when the object is there; the object itself has no default, so it may be missing
        nested: { type: 'object', properties: { b: { type: 'integer', default: 2 } } },
        // an object with a default is always there, and so are its own defaults
        options: { type: 'object', default: {}, properties: { c: { type: 'integer', default: 3 } } },
        list: { type: 'array', items: { type: 'object', properties: { d: { type: 'integer', default: 4 } } } },
        all: { allOf: [{ type: 'object', properties: { f: { type: 'integer', default: 7 } } }] },
        shared: { $ref: 'settings#' },
        // the default is on the $ref target, not on this property's schema: Ajv does not fill it
        theme: { $ref: 'settings#/properties/theme' },
        local: { $ref: '#/definitions/local' },
        // Ajv assigns no default under anyOf (its strict mode refuses one there)
        choice: { anyOf: [{ type: 'object', properties: { e: { type: 'integer', default: 6 } } }, { type: 'string' }] }
      },
      required: ['nested', 'list', 'all', 'shared', 'local', 'choice'],
      definitions: { local: { type: 'object', properties: { l: { type: 'integer', default: 11 } } } }
    }
  }
}, async (request) => {
  expectType<number>()(request.body.nested.b)
  expectType<number>()(request.body.options.c)
  expectType<number>()(request.body.list[0].d)
  expectType<number>()(request.body.all.f)
  expectType<string>()(request.body.shared.theme)
  expectType<number | undefined>()(request.body.shared.size)
  expectType<string | undefined>()(request.body.theme)
  expectType<number>()(request.body.local.l)
  const choice = request.body.choice
  if (typeof choice !== 'string') {
    expectType<number | undefined>()(choice.e)
    // @ts-expect-error under anyOf a default is not filled: e may be missing
    const e: number = choice.e
    void e
  }
})

// ---- `SchemaToType` on its own reads the values a schema accepts: a default changes nothing
declare const value: import('trellis').SchemaToType<{ type: 'object', properties: { a: { type: 'string', default: 'x' } } }>
expectType<string | undefined>()(value.a)

// ---- replies: the serializer writes a missing property's default, required or not
app.get('/account', {
  schema: {
    response: {
      200: { type: 'object', properties: { id: { type: 'integer' }, status: { type: 'string', default: 'active' }, plan: { type: 'string' } }, required: ['id', 'status', 'plan'] }
    }
  }
}, async (request, reply) => {
  if (request.id === 'a') return reply.code(200).send({ id: 1, plan: 'free' })
  if (request.id === 'b') return { id: 1, status: 'closed', plan: 'free' }
  if (request.id === 'c') {
    // @ts-expect-error plan has no default: a required property without one must be sent
    return reply.code(200).send({ id: 1 })
  }
  return { id: 2, plan: 'pro' }
})
