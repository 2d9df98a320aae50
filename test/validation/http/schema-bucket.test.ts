/** schemaController.bucket (Fastify 4.3): user storage for each context's shared schemas. */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../../src/index'

describe('schemaController.bucket', () => {
  it('one bucket per context, seeded with the parent schemas; addSchema/getSchema/getSchemas go through it', async () => {
    let built = 0
    const bucket = (init?: unknown): any => {
      built++
      const store = new Map(init as Map<string, unknown> | undefined)
      return { add: (s: any) => store.set(s.$id, s), getSchema: (id: string) => store.get(id), getSchemas: () => store }
    }
    const app = trellis({ schemaController: { bucket } })
    app.addSchema({ $id: 'a', type: 'string' })
    let sizes: number[] = []
    app.register(async (i: any) => {
      i.addSchema({ $id: 'b', type: 'string' })
      i.post('/', { schema: { body: { type: 'object', properties: { x: { $ref: 'b#' } } } } }, async (req: any) => req.body)
      i.addHook('onReady', function (done: () => void) { sizes = [i.getSchemas().size, app.getSchemas().size]; done() })
    })
    await app.ready()
    assert.equal(built, 2)
    assert.deepEqual(sizes, [2, 1])
    assert.equal((await app.inject({ method: 'POST', url: '/', payload: { x: 1 } })).statusCode, 200)
    assert.equal((await app.inject({ method: 'POST', url: '/', payload: { x: {} } })).statusCode, 400)
    await app.close()
  })

  it('a bucket option that is not a function is refused', () => {
    assert.throws(() => trellis({ schemaController: { bucket: {} } } as never), /schemaController.bucket option should be a function, instead got 'object'/)
  })
})
