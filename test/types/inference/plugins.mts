// Inference inside plugins: an inline `register` callback, a plugin typed
// `async (app: TrellisInstance) => …`, `trellis/plugin`, nested levels. No extra generics anywhere.
import trellis, { type TrellisInstance } from 'trellis'
import fp from 'trellis/plugin'
import { expectType } from './expect.js'

const schema = {
  body: { type: 'object', properties: { title: { type: 'string' }, done: { type: 'boolean' } }, required: ['title'] },
  response: { 201: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }
} as const // a schema kept in a variable needs `as const` (literal types are only kept inline)

// a plugin module as users write them: the instance type is the only annotation
export async function todos (app: TrellisInstance): Promise<void> {
  app.post('/todos', { schema }, async (request, reply) => {
    expectType<string>()(request.body.title)
    expectType<boolean | undefined>()(request.body.done)
    // @ts-expect-error inside a plugin too: an unknown body property of a wrong type
    const done: string = request.body.done
    void done
    return reply.code(201).send({ id: 1 })
  })
  app.get('/todos/:id', {
    schema: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } }
  }, async (request) => {
    expectType<number>()(request.params.id)
  })
  app.post('/todos/bad', { schema },
    // @ts-expect-error inside a plugin: the only success response is { id: number }
    async () => ({ id: 'x' }))
}

const app = trellis()
app.register(todos, { prefix: '/v1' })

// an inline plugin: the child instance has the same inference
app.register(async (child) => {
  child.put('/x', { schema: { querystring: { type: 'object', properties: { force: { type: 'boolean' } } } } }, async (request) => {
    expectType<boolean | undefined>()(request.query.force)
  })
  // nested plugins, as deep as you like
  child.register(async (grandchild) => {
    grandchild.delete('/y/:n', { schema: { params: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] }, response: { 200: { type: 'string' } } } }, async (request, reply) => {
      expectType<number>()(request.params.n)
      // @ts-expect-error nested plugin: the reply schema is checked
      reply.code(200).send(true)
    })
  })
})

// trellis/plugin (skip-override): the same inference, and decorators as before
app.register(fp(async (instance) => {
  instance.decorate('answer', 42)
  instance.get('/z', { schema: { response: { 200: { type: 'array', items: { type: 'integer' } } } } }, async () => [1, 2, 3])
  instance.get('/z-bad', { schema: { response: { 200: { type: 'array', items: { type: 'integer' } } } } },
    // @ts-expect-error trellis/plugin: the array items are integers
    async () => ['1'])
}, { name: 'z' }))

// an options-typed plugin keeps its options type and the inference
const withOptions = async (instance: TrellisInstance, opts: { path: string }): Promise<void> => {
  instance.get(opts.path, { schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } } } } }, async (request) => {
    expectType<number | undefined>()(request.query.n)
  })
}
app.register(withOptions, { path: '/opts' })
// @ts-expect-error the plugin's options are checked
app.register(withOptions, { path: 1 })
