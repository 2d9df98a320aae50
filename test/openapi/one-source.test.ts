/**
 * One source of truth: the same `addSchema` call feeds the validator, the serializer and the
 * document. Changing that one call changes all three together.
 */
import { it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import openapi from '../../src/openapi'

async function appWith (product: Record<string, unknown>): Promise<ReturnType<typeof trellis>> {
  const app = trellis()
  await app.register(openapi, { ui: false })
  app.addSchema({ $id: 'Product', type: 'object', ...product })
  app.post('/products', { schema: { body: { $ref: 'Product#' }, response: { 200: { $ref: 'Product#' } } } },
    async (request) => ({ ...(request.body as object), color: 'red', internal: 'never sent' }))
  await app.ready()
  return app
}

it('one addSchema change reaches the validator, the serializer and the document together', async () => {
  const before = await appWith({ required: ['name'], properties: { name: { type: 'string', maxLength: 5 } } })
  const after = await appWith({ required: ['name', 'color'], properties: { name: { type: 'string', maxLength: 10 }, color: { type: 'string' } } })
  const post = (app: typeof before, body: unknown) => app.inject({ method: 'POST', url: '/products', payload: body as object })

  // validator
  assert.equal((await post(before, { name: 'longer' })).statusCode, 400, 'maxLength 5')
  assert.equal((await post(after, { name: 'longer' })).statusCode, 400, 'color is now required')
  assert.equal((await post(after, { name: 'longer', color: 'blue' })).statusCode, 200, 'maxLength 10')
  // serializer
  assert.deepEqual((await post(before, { name: 'pen' })).json(), { name: 'pen' }, 'color is not declared yet: not sent')
  assert.deepEqual((await post(after, { name: 'pen', color: 'blue' })).json(), { name: 'pen', color: 'red' }, 'color is declared now')
  // document, served and returned
  const component = (app: typeof before) => (app.openapi().components?.schemas as any).Product
  assert.deepEqual(component(before), { type: 'object', required: ['name'], properties: { name: { type: 'string', maxLength: 5 } } })
  assert.deepEqual(component(after), { type: 'object', required: ['name', 'color'], properties: { name: { type: 'string', maxLength: 10 }, color: { type: 'string' } } })
  const served = (await after.inject({ url: '/documentation/json' })).json()
  assert.deepEqual(served.components.schemas.Product, component(after))
  assert.equal(served.paths['/products'].post.requestBody.content['application/json'].schema.$ref, '#/components/schemas/Product')
  await before.close()
  await after.close()
})
