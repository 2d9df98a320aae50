/**
 * An application using every feature the OpenAPI document covers: shared schemas in the root and in
 * sibling contexts (the same `$id` with different content), all six `$ref` forms, parameters from
 * `$ref`s and pointers, cookies, style/explode, bodies with several parsers, response classes,
 * `default`, 204 and `type: 'null'`, response headers, hidden and HEAD routes, tags, security.
 * `order: 'reversed'` registers the same routes and plugins in the opposite order.
 */
import trellis from '../../src/index'
import openapi, { type OpenApiOptions } from '../../src/openapi'
import type { TrellisInstance } from '../../src/index'

export function fixtureOptions (version?: string): OpenApiOptions {
  return {
    openapi: {
      ...(version === undefined ? {} : { openapi: version }),
      info: { title: 'Fixture shop', version: '2.0.0', description: 'every feature' },
      servers: [{ url: 'http://127.0.0.1:3000' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [],
      tags: [{ name: 'items', description: 'Items' }, { name: 'users' }],
      externalDocs: { url: 'https://example.com/docs' }
    },
    uiConfig: { tryItOutEnabled: true }
  }
}

type Step = (app: TrellisInstance) => void

export function buildFixture (options: { order?: 'given' | 'reversed', version?: string, ui?: boolean } = {}): TrellisInstance {
  const app = trellis({ ajv: { customOptions: { keywords: ['style', 'explode', 'example', 'x-consume'] } } })
  const steps: Step[] = []
  steps.push((a) => a.register(openapi, { ...fixtureOptions(options.version), ui: options.ui ?? false }))
  // root shared schemas
  app.addSchema({
    $id: 'http://example.com/schemas/common.json',
    definitions: {
      id: { type: 'integer', minimum: 1, description: 'An identifier' },
      money: { $id: '#money', type: 'number', exclusiveMinimum: 0, examples: [9.5] },
      name: { type: 'string', minLength: 1, maxLength: 50 }
    }
  })
  app.addSchema({ $id: 'Tag', type: 'string', enum: ['new', 'sale'], description: 'A label' })
  app.addSchema({
    $id: 'Item',
    type: 'object',
    required: ['name', 'price'],
    properties: {
      id: { $ref: 'http://example.com/schemas/common.json#/definitions/id' },
      name: { $ref: 'http://example.com/schemas/common.json#/definitions/name' },
      price: { $ref: 'http://example.com/schemas/common.json#money' },
      note: { type: ['string', 'null'] },
      kind: { const: 'item' },
      tags: { type: 'array', items: { $ref: 'Tag#' } },
      parent: { $ref: '#' }
    }
  })
  app.addSchema({
    $id: 'ItemQuery',
    type: 'object',
    properties: {
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 10, description: 'Page size' },
      tag: { type: 'array', items: { $ref: 'Tag' }, style: 'form', explode: true }
    },
    required: ['limit']
  })
  steps.push((a) => a.get('/items', {
    schema: {
      tags: ['items'],
      summary: 'List items',
      operationId: 'listItems',
      querystring: { $ref: 'ItemQuery#' },
      headers: { type: 'object', properties: { 'x-request-id': { type: 'string', description: 'Tracing id' }, authorization: { type: 'string' } } },
      cookies: { type: 'object', properties: { session: { type: 'string' } } },
      response: {
        200: { description: 'The items', type: 'array', items: { $ref: 'Item#' }, headers: { 'x-total': { type: 'integer', description: 'Total count' } } },
        '4xx': { type: 'object', properties: { message: { type: 'string' } } }
      }
    }
  }, async () => []))
  steps.push((a) => a.post('/items', {
    schema: {
      tags: ['items'],
      summary: 'Create an item',
      security: [{ bearer: [] }],
      body: { $ref: 'Item#' },
      response: { 201: { $ref: 'Item#' }, default: { description: 'An error', type: 'object', properties: { error: { type: 'string' } } } }
    }
  }, async (_req, reply) => { reply.code(201); return { name: 'x', price: 1 } }))
  steps.push((a) => a.get('/items/:id', {
    schema: {
      tags: ['items'],
      params: { type: 'object', properties: { id: { $ref: 'http://example.com/schemas/common.json#/definitions/id' } } },
      response: { 200: { $ref: 'Item' }, 404: { type: 'null', description: 'No such item' } }
    }
  }, async () => null))
  steps.push((a) => a.delete('/items/:id', {
    schema: { tags: ['items'], deprecated: true, response: { 204: { type: 'null', description: 'Deleted' } } }
  }, async (_req, reply) => { reply.code(204) }))
  steps.push((a) => a.put('/items/:id(^\\d+$)/price', {
    schema: {
      tags: ['items'],
      description: 'a local definition and an anchor inside the route schema',
      body: {
        type: 'object',
        definitions: { amount: { $id: '#amount', type: 'number', minimum: 0, example: 3 } },
        properties: { price: { $ref: '#/definitions/amount' }, old: { $ref: '#amount' } }
      }
    }
  }, async () => ({})))
  steps.push((a) => a.get('/hidden', { schema: { hide: true } }, async () => ({})))
  steps.push((a) => a.get('/secret', { schema: { tags: ['X-HIDDEN'] } }, async () => ({})))
  steps.push((a) => a.get('/files/*', { schema: { tags: ['items'] } }, async () => ''))
  // two sibling contexts with the same `$id` and different content
  steps.push((a) => a.register(async function shop (child) {
    child.addSchema({ $id: 'User', type: 'object', properties: { name: { type: 'string' } } })
    child.get('/shop/user', { schema: { tags: ['users'], response: { 200: { $ref: 'User#' } } } }, async () => ({ name: 'a' }))
  }))
  steps.push((a) => a.register(async function admin (child) {
    child.addSchema({ $id: 'User', type: 'object', properties: { name: { type: 'string' }, admin: { type: 'boolean' } } })
    child.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => { done(null, Object.fromEntries(new URLSearchParams(body as string))) })
    child.post('/admin/user', {
      schema: {
        tags: ['users'],
        body: { $ref: 'User#' },
        response: { '2xx': { $ref: 'User#/properties/name' } }
      }
    }, async () => 'ok')
  }, { prefix: '/v2' }))
  if (options.order === 'reversed') steps.reverse()
  for (const step of steps) step(app)
  return app
}
