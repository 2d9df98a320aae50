/**
 * Header names are case-insensitive and node gives them lowercased, so a headers schema must name
 * them in lower case to match. Fastify 4.29 lowercased only the top-level `properties` and
 * `required`: a header name written `X-Api-Key` inside `allOf`, `if`/`then`, `dependencies` or
 * `propertyNames` never matched, and its assertion silently did not apply (Fastify 5.12 normalizes
 * every depth). Each route below must refuse the request that such a schema means to refuse.
 * Over a real socket.
 */
import { before, after, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { type TrellisInstance } from '../../src/index'
import { listen, request } from '../helpers'

let app: TrellisInstance
let port = 0

before(async () => {
  app = trellis()
  const ok = async (): Promise<string> => 'ok'
  // a constraint on a header, inside allOf
  app.get('/all-of', { schema: { headers: { type: 'object', allOf: [{ properties: { 'X-Api-Key': { type: 'string', minLength: 10 } } }] } } }, ok)
  // X-Admin requires X-Signature (if/then)
  app.get('/if-then', { schema: { headers: { type: 'object', if: { required: ['X-Admin'] }, then: { required: ['X-Signature'] } } } }, ok)
  // X-Token requires X-Signature (dependencies, draft 7)
  app.get('/dependencies', { schema: { headers: { type: 'object', dependencies: { 'X-Token': ['X-Signature'] } } } }, ok)
  // a deny-list of header names
  app.get('/property-names', { schema: { headers: { type: 'object', propertyNames: { not: { enum: ['X-Debug-Override'] } } } } }, ok)
  // one of two credentials must be present
  app.get('/any-of', { schema: { headers: { type: 'object', anyOf: [{ required: ['X-Api-Key'] }, { required: ['Authorization'] }] } } }, ok)
  port = (await listen(app)).port
})

after(async () => { await app.close() })

async function status (path: string, headers: Record<string, string>): Promise<[number, string | undefined]> {
  const res = await request(port, { path, headers })
  return [res.statusCode, res.statusCode === 400 ? (JSON.parse(res.body) as { code: string }).code : undefined]
}

describe('headers schemas with mixed-case names below the top level', () => {
  it('allOf: a too-short X-Api-Key is refused, a long one accepted', async () => {
    assert.deepEqual(await status('/all-of', { 'x-api-key': 'short' }), [400, 'FST_ERR_VALIDATION'])
    assert.deepEqual(await status('/all-of', { 'X-API-KEY': 'long-enough-key' }), [200, undefined])
  })

  it('if/then: X-Admin without X-Signature is refused', async () => {
    assert.deepEqual(await status('/if-then', { 'X-Admin': '1' }), [400, 'FST_ERR_VALIDATION'])
    assert.deepEqual(await status('/if-then', { 'X-Admin': '1', 'X-Signature': 's' }), [200, undefined])
    assert.deepEqual(await status('/if-then', {}), [200, undefined])
  })

  it('dependencies: X-Token without X-Signature is refused', async () => {
    assert.deepEqual(await status('/dependencies', { 'x-token': 't' }), [400, 'FST_ERR_VALIDATION'])
    assert.deepEqual(await status('/dependencies', { 'x-token': 't', 'x-signature': 's' }), [200, undefined])
  })

  it('propertyNames deny-list: X-Debug-Override is refused in any case', async () => {
    assert.deepEqual(await status('/property-names', { 'X-Debug-Override': '1' }), [400, 'FST_ERR_VALIDATION'])
    assert.deepEqual(await status('/property-names', { 'x-other': '1' }), [200, undefined])
  })

  it('anyOf required: either credential, sent in any case, is enough; neither is refused', async () => {
    assert.deepEqual(await status('/any-of', { 'x-api-key': 'k' }), [200, undefined])
    assert.deepEqual(await status('/any-of', { authorization: 'Bearer k' }), [200, undefined])
    assert.deepEqual(await status('/any-of', {}), [400, 'FST_ERR_VALIDATION'])
  })
})
