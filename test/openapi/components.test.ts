/**
 * Components from `$id`: what a shared schema becomes in each context that uses it, nested `$id`s
 * and relative references, name collisions, and references whose meaning depends on the context.
 */
import { it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import openapi from '../../src/openapi'
import { collect, follow, parserDereference, schemaErrors } from './helpers'

async function documentOf (setup: (app: ReturnType<typeof trellis>) => void, version?: string): Promise<any> {
  const app = trellis()
  app.register(openapi, { ui: false, openapi: version === undefined ? {} : { openapi: version } })
  setup(app)
  await app.ready()
  const doc = app.openapi()
  await app.close()
  assert.equal(await schemaErrors(doc), null)
  await parserDereference(doc)
  assert.deepEqual(collect(doc, '$id'), [])
  return doc
}

const bodyRef = (doc: any, path: string, method = 'post'): string => doc.paths[path][method].requestBody.content['application/json'].schema.$ref

it('a root schema whose $ref means a different schema in each child context gets one component per meaning', async () => {
  for (const version of [undefined, '3.0.3']) {
    const doc = await documentOf((app) => {
      app.addSchema({ $id: 'Order', type: 'object', properties: { item: { $ref: 'Item#' } } })
      app.register(async (a) => {
        a.addSchema({ $id: 'Item', type: 'object', properties: { sku: { type: 'string' } } })
        a.post('/a', { schema: { body: { $ref: 'Order#' } } }, async () => ({}))
      })
      app.register(async (b) => {
        b.addSchema({ $id: 'Item', type: 'object', properties: { isbn: { type: 'string' } } })
        b.post('/b', { schema: { body: { $ref: 'Order#' } } }, async () => ({}))
      })
    }, version)
    const orderA = follow(doc, bodyRef(doc, '/a')) as any
    const orderB = follow(doc, bodyRef(doc, '/b')) as any
    assert.notEqual(bodyRef(doc, '/a'), bodyRef(doc, '/b'))
    assert.deepEqual(Object.keys((follow(doc, orderA.properties.item.$ref) as any).properties), ['sku'])
    assert.deepEqual(Object.keys((follow(doc, orderB.properties.item.$ref) as any).properties), ['isbn'])
    assert.deepEqual(Object.keys(doc.components.schemas).sort(), ['Item', 'Item_2', 'Order', 'Order_2'])
  }
})

it('the same schema in sibling contexts is one component', async () => {
  const doc = await documentOf((app) => {
    for (const path of ['/a', '/b']) {
      app.register(async (child) => {
        child.addSchema({ $id: 'Money', type: 'number', minimum: 0 })
        child.post(path, { schema: { body: { $ref: 'Money#' } } }, async () => ({}))
      })
    }
  })
  assert.deepEqual(Object.keys(doc.components.schemas), ['Money'])
  assert.equal(bodyRef(doc, '/a'), bodyRef(doc, '/b'))
})

it('nested $id: relative references resolve against it, and a reference to it is a pointer into its document', async () => {
  const doc = await documentOf((app) => {
    app.addSchema({
      $id: 'http://example.com/a/root.json',
      type: 'object',
      properties: {
        inner: { $id: 'inner.json', type: 'object', definitions: { v: { type: 'string', maxLength: 3 } }, properties: { v: { $ref: '#/definitions/v' } } },
        sibling: { $ref: 'inner.json#/definitions/v' }
      }
    })
    app.post('/x', { schema: { body: { $ref: 'http://example.com/a/inner.json' } } }, async () => ({}))
  })
  assert.equal(bodyRef(doc, '/x'), '#/components/schemas/a.root/properties/inner')
  const root = doc.components.schemas['a.root']
  assert.equal(root.properties.inner.properties.v.$ref, '#/components/schemas/a.root/properties/inner/definitions/v')
  assert.equal(root.properties.sibling.$ref, '#/components/schemas/a.root/properties/inner/definitions/v')
})

it('names: derived from $id, made valid, collisions numbered', async () => {
  const doc = await documentOf((app) => {
    app.addSchema({ $id: 'a/b', type: 'string' })
    app.addSchema({ $id: 'a.b', type: 'integer' })
    app.addSchema({ $id: 'weird(name)', type: 'boolean' })
    app.post('/x', { schema: { body: { type: 'object', properties: { p: { $ref: 'a/b#' }, q: { $ref: 'a.b#' }, r: { $ref: 'weird(name)#' } } } } }, async () => ({}))
  })
  const names = Object.keys(doc.components.schemas)
  for (const name of names) assert.match(name, /^[A-Za-z0-9._-]+$/)
  assert.equal(names.length, 3)
  const body = doc.paths['/x'].post.requestBody.content['application/json'].schema
  assert.deepEqual(['p', 'q', 'r'].map((k) => (follow(doc, body.properties[k].$ref) as any).type), ['string', 'integer', 'boolean'])
})

it('a response described only through its $ref, and a $ref with siblings in 3.0 (wrapped in allOf)', async () => {
  const setup = (app: ReturnType<typeof trellis>): void => {
    app.addSchema({ $id: 'Described', type: 'object', description: 'From the shared schema', properties: { a: { type: 'string' } } })
    app.get('/d', { schema: { response: { 200: { $ref: 'Described#' } } } }, async () => ({}))
    app.post('/s', { schema: { body: { type: 'object', properties: { d: { $ref: 'Described#', description: 'this use' } } } } }, async () => ({}))
  }
  const doc31 = await documentOf(setup)
  assert.equal(doc31.paths['/d'].get.responses['200'].description, 'From the shared schema')
  assert.deepEqual(doc31.paths['/s'].post.requestBody.content['application/json'].schema.properties.d, { $ref: '#/components/schemas/Described', description: 'this use' })
  const doc30 = await documentOf(setup, '3.0.3')
  assert.deepEqual(doc30.paths['/s'].post.requestBody.content['application/json'].schema.properties.d, { description: 'this use', allOf: [{ $ref: '#/components/schemas/Described' }] })
})

it('all six $ref forms the validator accepts are rewritten to components (pointers and anchors kept as pointers)', async () => {
  const doc = await documentOf((app) => {
    app.addSchema({ $id: 'http://example.com/lib.json', definitions: { a: { type: 'string' }, b: { $id: '#bee', type: 'integer' } } })
    app.post('/forms', {
      schema: {
        body: {
          type: 'object',
          definitions: { local: { type: 'boolean' }, anchored: { $id: '#here', type: 'null' } },
          properties: {
            anchorHere: { $ref: '#here' },
            pointerHere: { $ref: '#/definitions/local' },
            uri: { $ref: 'http://example.com/lib.json' },
            uriHash: { $ref: 'http://example.com/lib.json#' },
            uriPointer: { $ref: 'http://example.com/lib.json#/definitions/a' },
            uriAnchor: { $ref: 'http://example.com/lib.json#bee' }
          }
        }
      }
    }, async () => ({}))
  })
  const bodyName = bodyRef(doc, '/forms').replace('#/components/schemas/', '')
  const body = doc.components.schemas[bodyName]
  const refs = Object.fromEntries(Object.entries(body.properties).map(([k, v]) => [k, (v as { $ref: string }).$ref]))
  assert.deepEqual(refs, {
    anchorHere: `#/components/schemas/${bodyName}/definitions/anchored`,
    pointerHere: `#/components/schemas/${bodyName}/definitions/local`,
    uri: '#/components/schemas/lib',
    uriHash: '#/components/schemas/lib',
    uriPointer: '#/components/schemas/lib/definitions/a',
    uriAnchor: '#/components/schemas/lib/definitions/b'
  })
  assert.deepEqual(collect(doc, '$anchor'), [])
})
