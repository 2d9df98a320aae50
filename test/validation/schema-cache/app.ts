/**
 * One application used by the cold/warm comparisons: errors, coercion, defaults,
 * removeAdditional, formats, patterns, enum, uniqueItems and $ref to shared schemas, in every part.
 */
import trellis from '../../../src/index'

export const USER = {
  $id: 'user',
  type: 'object',
  properties: { name: { type: 'string', minLength: 2 }, age: { type: 'integer', minimum: 0 } },
  required: ['name'],
  definitions: { id: { type: 'integer', minimum: 1 } }
}

export function buildApp (options: Record<string, unknown>, user: Record<string, unknown> = USER) {
  const app = trellis({ logger: false, ...options })
  app.addSchema(structuredClone(user))
  app.post('/plain/:id', {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer' } } },
      querystring: { type: 'object', properties: { n: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } },
      headers: { type: 'object', properties: { 'X-Level': { type: 'integer', maximum: 5 } } },
      body: {
        type: 'object',
        additionalProperties: false,
        required: ['name'],
        properties: {
          name: { type: 'string', maxLength: 5 },
          count: { type: 'integer', default: 3 },
          tags: { type: 'array', uniqueItems: true, default: [] },
          when: { type: 'string', format: 'date-time' },
          mail: { type: 'string', format: 'email' },
          code: { type: 'string', pattern: '^x\\d+$' },
          kind: { enum: ['a', { b: 1 }] }
        }
      }
    }
  }, async (req) => ({ params: req.params, query: req.query, level: req.headers['x-level'] ?? null, body: req.body }))
  app.post('/ref', {
    schema: {
      body: {
        type: 'object',
        properties: { user: { $ref: 'user#' }, age: { $ref: 'user#/properties/age' }, id: { $ref: 'user#/definitions/id' } }
      }
    }
  }, async (req) => req.body)
  app.post('/whole', { schema: { body: { $ref: 'user#' } } }, async (req) => req.body)
  const tree = { $ref: '#/definitions/node', definitions: { node: { type: 'object', required: ['v'], properties: { v: { type: 'integer' }, kids: { type: 'array', items: { $ref: '#/definitions/node' } } } } } }
  app.post('/tree', { schema: { body: tree } }, async (req) => req.body)
  app.post('/async', { schema: { body: { $async: true, type: 'object', properties: { a: { type: 'integer' } } } } }, async (req) => req.body)
  return app
}

/** Requests whose answers must be the same with and without the cache, cold or warm. */
export const REQUESTS = [
  { method: 'POST', url: '/plain/7?n=3&tags=a', headers: { 'x-level': '2' }, payload: { name: 'ann', extra: 1 } },
  { method: 'POST', url: '/plain/x', payload: { name: 'ann' } },
  { method: 'POST', url: '/plain/1?n=z', payload: { name: 'ann' } },
  { method: 'POST', url: '/plain/1', headers: { 'x-level': '9' }, payload: { name: 'ann' } },
  { method: 'POST', url: '/plain/1', payload: {} },
  { method: 'POST', url: '/plain/1', payload: { name: 'toolong' } },
  { method: 'POST', url: '/plain/1', payload: { name: 'a', count: '12', tags: ['x', 'x'] } },
  { method: 'POST', url: '/plain/1', payload: { name: 'a', when: 'yesterday' } },
  { method: 'POST', url: '/plain/1', payload: { name: 'a', when: '2026-11-23T05:00:00Z', mail: 'a@b.co', code: 'x12', kind: { b: 1 } } },
  { method: 'POST', url: '/plain/1', payload: { name: 'a', mail: 'nope' } },
  { method: 'POST', url: '/plain/1', payload: { name: 'a', code: 'y1' } },
  { method: 'POST', url: '/plain/1', payload: { name: 'a', kind: 'c' } },
  { method: 'POST', url: '/ref', payload: { user: { name: 'bo', age: '4' }, age: '5', id: '2' } },
  { method: 'POST', url: '/ref', payload: { user: { name: 'b' } } },
  { method: 'POST', url: '/ref', payload: { id: 0 } },
  { method: 'POST', url: '/whole', payload: { age: 1 } },
  { method: 'POST', url: '/whole', payload: { name: 'bob', age: '3' } },
  { method: 'POST', url: '/tree', payload: { v: '1', kids: [{ v: 2, kids: [{ v: '3' }] }] } },
  { method: 'POST', url: '/tree', payload: { v: 1, kids: [{ v: 2, kids: [{ v: 'x' }] }] } },
  { method: 'POST', url: '/async', payload: { a: 'x' } }
] as const

export async function answers (app: ReturnType<typeof buildApp>): Promise<Array<{ status: number, body: unknown }>> {
  await app.ready()
  const out = []
  for (const r of REQUESTS) {
    const res = await app.inject(r as never)
    out.push({ status: res.statusCode, body: res.json() })
  }
  await app.close()
  return out
}
