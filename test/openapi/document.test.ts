/**
 * The document of the fixture application (every feature), in 3.1 and 3.0.3: valid for
 * @seriousme/openapi-schema-validator and @apidevtools/swagger-parser, and saying what the routes do.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { buildFixture } from './fixture'
import { collect, follow, parserDereference, schemaErrors } from './helpers'

async function documentOf (version?: string): Promise<any> {
  const app = buildFixture({ version })
  await app.ready()
  const doc = app.openapi()
  await app.close()
  return doc
}

for (const version of [undefined, '3.0.3']) {
  describe(`fixture document, ${version ?? '3.1.0 (default)'}`, () => {
    it('validates against the OpenAPI schema and dereferences without a dangling $ref', async () => {
      const doc = await documentOf(version)
      assert.equal(doc.openapi, version ?? '3.1.0')
      assert.equal(await schemaErrors(doc), null)
      await parserDereference(doc)
      for (const ref of collect(doc, '$ref') as string[]) {
        assert.match(ref, /^#\/components\/schemas\//)
        assert.notEqual(follow(doc, ref), undefined, `${ref} resolves inside the document`)
      }
      assert.deepEqual(collect(doc, '$id'), [], 'no $id remains')
    })

    it('lists every route of every context, with prefixes and {param} templates, without hidden and HEAD routes', async () => {
      const doc = await documentOf(version)
      const operations = Object.entries(doc.paths).flatMap(([path, item]) => Object.keys(item as object).map((m) => `${m.toUpperCase()} ${path}`))
      assert.deepEqual(operations, [
        'GET /files/{*}', 'GET /items', 'POST /items', 'GET /items/{id}', 'DELETE /items/{id}',
        'PUT /items/{id}/price', 'GET /shop/user', 'POST /v2/admin/user'
      ])
    })

    it('parameters: from a $ref querystring (required kept), pointers, headers, cookies, style/explode', async () => {
      const doc = await documentOf(version)
      const list = doc.paths['/items'].get.parameters
      assert.deepEqual(list.map((p: any) => `${p.in}:${p.name}:${p.required === true}`), ['query:limit:true', 'query:tag:false', 'header:x-request-id:false', 'cookie:session:false'])
      assert.equal(list[0].description, 'Page size')
      assert.equal(list[1].style, 'form')
      assert.equal(list[1].explode, true)
      const id = doc.paths['/items/{id}'].get.parameters[0]
      assert.deepEqual({ name: id.name, in: id.in, required: id.required }, { name: 'id', in: 'path', required: true })
      assert.equal((follow(doc, id.schema.$ref) as any).type, 'integer', 'a pointer into a shared schema')
      assert.deepEqual(doc.paths['/items/{id}'].delete.parameters[0].schema, { type: 'string' }, 'undeclared path parameters are strings')
    })

    it('bodies: one content type per parser of the route\'s context; responses: 2XX, default, 204 and type null without content, headers', async () => {
      const doc = await documentOf(version)
      assert.deepEqual(Object.keys(doc.paths['/items'].post.requestBody.content), ['application/json'])
      assert.deepEqual(Object.keys(doc.paths['/v2/admin/user'].post.requestBody.content), ['application/json', 'application/x-www-form-urlencoded'])
      const adminResponses = doc.paths['/v2/admin/user'].post.responses
      assert.deepEqual(Object.keys(adminResponses), ['2XX'])
      assert.deepEqual(Object.keys(doc.paths['/items'].post.responses), ['201', 'default'])
      assert.equal(doc.paths['/items'].post.responses.default.description, 'An error')
      assert.deepEqual(doc.paths['/items/{id}'].delete.responses['204'], { description: 'Deleted' })
      assert.deepEqual(doc.paths['/items/{id}'].get.responses['404'], { description: 'No such item' })
      const ok = doc.paths['/items'].get.responses['200']
      assert.equal(ok.description, 'The items')
      assert.equal(ok.headers['x-total'].description, 'Total count')
      assert.equal(collect(ok.content, 'headers').length, 0, 'response headers are not part of the body schema')
      assert.deepEqual(Object.keys(doc.paths['/items'].get.responses), ['200', '4XX'])
    })

    it('components: stable names from $id; the same $id in sibling contexts gets two names', async () => {
      const doc = await documentOf(version)
      const names = Object.keys(doc.components.schemas)
      for (const name of ['Item', 'ItemQuery', 'Tag', 'User', 'User_2', 'schemas.common']) assert.ok(names.includes(name), name)
      const shop = follow(doc, doc.paths['/shop/user'].get.responses['200'].content['application/json'].schema.$ref) as any
      const admin = follow(doc, doc.paths['/v2/admin/user'].post.requestBody.content['application/json'].schema.$ref) as any
      assert.deepEqual(Object.keys(shop.properties), ['name'])
      assert.deepEqual(Object.keys(admin.properties), ['name', 'admin'])
      assert.deepEqual(doc.components.securitySchemes, { bearer: { type: 'http', scheme: 'bearer' } }, 'given components are kept')
      const item = doc.components.schemas.Item
      assert.equal(item.properties.parent.$ref, '#/components/schemas/Item', '`#` inside a shared schema')
      assert.equal(item.properties.tags.items.$ref, '#/components/schemas/Tag', '`Tag#`')
    })
  })
}

describe('dialects', () => {
  it('3.1: type arrays for null, const, numeric exclusive bounds, examples arrays', async () => {
    const doc = await documentOf()
    const item = doc.components.schemas.Item
    assert.deepEqual(item.properties.note.type, ['string', 'null'])
    assert.deepEqual(item.properties.kind, { const: 'item' })
    const money = follow(doc, item.properties.price.$ref) as any
    assert.equal(money.exclusiveMinimum, 0)
    assert.deepEqual(money.examples, [9.5])
    const body = follow(doc, doc.paths['/items/{id}/price'].put.requestBody.content['application/json'].schema.$ref) as any
    assert.deepEqual((follow(doc, body.properties.price.$ref) as any).examples, [3], '`example` becomes `examples`')
  })

  it('3.0.3: nullable, enum [v], boolean exclusive bounds, example; definitions become components', async () => {
    const doc = await documentOf('3.0.3')
    const item = doc.components.schemas.Item
    assert.deepEqual(item.properties.note, { type: 'string', nullable: true })
    assert.deepEqual(item.properties.kind, { enum: ['item'] })
    assert.equal(item.properties.price.$ref, '#/components/schemas/schemas.common.money')
    const money = doc.components.schemas['schemas.common.money']
    assert.equal(money.exclusiveMinimum, true)
    assert.equal(money.minimum, 0)
    assert.equal(money.example, 9.5)
    assert.deepEqual(collect(doc, 'definitions'), [])
  })
})

describe('the validators used above', () => {
  it('reject what is wrong (so a pass means something)', async () => {
    assert.notEqual(await schemaErrors({ openapi: '3.1.0', info: { title: 'no version' }, paths: {} }), null)
    assert.notEqual(await schemaErrors({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { a: { definitions: {} } } } }), null, '3.0 has no definitions')
    await assert.rejects(parserDereference({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {}, components: { schemas: { a: { $ref: '#/components/schemas/missing' } } } }))
  })
})
