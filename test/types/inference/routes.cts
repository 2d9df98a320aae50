// The same inference from CommonJS (`require`), including a SchemaRegistry entry declared here.
import trellis = require('trellis')
import fp = require('trellis/plugin')
import { expectType } from './expect.js'

const point = { $id: 'point', type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'], additionalProperties: false } as const
declare module 'trellis' {
  interface SchemaRegistry { point: typeof point }
}

const app = trellis.default()
app.addSchema(point)
app.post('/points', {
  schema: {
    body: { type: 'array', items: { $ref: 'point#' } },
    response: { 200: { $ref: 'point#' } }
  }
}, async (request) => {
  expectType<number>()(request.body[0].x)
  // @ts-expect-error CommonJS: the registered schema is closed
  void request.body[0].z
  return { x: 1, y: 2 }
})
app.get('/points/first', { schema: { response: { 200: { $ref: 'point#/properties/x' } } } },
  // @ts-expect-error CommonJS: a $ref to a property types the reply (a number)
  async () => 'one')
app.register(fp.default(async (instance: trellis.TrellisInstance) => {
  instance.get('/cjs-plugin', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] } } }, async (request) => {
    expectType<number>()(request.params.id)
  })
}))
