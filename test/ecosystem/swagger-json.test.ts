/**
 * @fastify/swagger 8 and @fastify/swagger-ui 4 (`fastify: '4.x'`) on trellis: the OpenAPI document
 * built from the routes' schemas (params, querystring, body, responses, shared `$ref` schemas,
 * hidden routes), served as JSON and YAML by swagger-ui, with its HTML page and static assets
 * over a real socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/swagger'), {
    openapi: { info: { title: 'shop', version: '1.2.3' } }
  })
  await app.register(plugin('@fastify/swagger-ui'), { routePrefix: '/docs' })
  app.addSchema({ $id: 'Item', type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } })
  app.get('/items/:id', {
    schema: {
      params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
      querystring: { type: 'object', properties: { full: { type: 'boolean' } } },
      response: { 200: { $ref: 'Item#' } },
      tags: ['items'],
      summary: 'one item'
    }
  }, async (req: any) => ({ id: req.params.id, name: 'n' }))
  app.post('/items', {
    schema: {
      body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } },
      response: { 201: { $ref: 'Item#' } }
    }
  }, async (req: any, reply: any) => reply.code(201).send({ id: 1, name: req.body.name }))
  app.get('/internal', { schema: { hide: true } }, async () => 'x')
  await app.ready()
  return app
}

test('the OpenAPI document describes the routes from their schemas', async () => {
  const app = await build()
  const doc = app.swagger()
  assert.equal(doc.openapi, '3.0.3')
  assert.deepEqual(doc.info, { title: 'shop', version: '1.2.3' })
  assert.deepEqual(Object.keys(doc.paths).sort(), ['/items', '/items/{id}'])
  const get = doc.paths['/items/{id}'].get
  assert.equal(get.summary, 'one item')
  assert.deepEqual(get.tags, ['items'])
  assert.deepEqual(get.parameters.map((p: any) => [p.in, p.name, p.required === true]).sort(),
    [['path', 'id', true], ['query', 'full', false]])
  assert.equal(get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/def-0')
  assert.deepEqual(doc.components.schemas['def-0'].properties, { id: { type: 'integer' }, name: { type: 'string' } })
  const post = doc.paths['/items'].post
  assert.deepEqual(post.requestBody.content['application/json'].schema.required, ['name'])
  assert.ok(post.responses['201'])
  await app.close()
})

test('swagger-ui serves the document (JSON and YAML), its page and assets over a real socket', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const json = await request(port, { path: '/docs/json' })
  assert.equal(json.statusCode, 200)
  assert.deepEqual(JSON.parse(json.body), JSON.parse(JSON.stringify(app.swagger()))) // the in-memory document carries a resolver symbol
  const yaml = await request(port, { path: '/docs/yaml' })
  assert.equal(yaml.statusCode, 200)
  assert.match(String(yaml.headers['content-type']), /yaml/)
  assert.match(yaml.body, /^openapi: 3\.0\.3/m)
  const moved = await request(port, { path: '/docs/static/index.html' })
  assert.equal(moved.statusCode, 302)
  assert.equal(moved.headers.location, '/docs/')
  const page = await request(port, { path: '/docs/' })
  assert.equal(page.statusCode, 200)
  assert.match(String(page.headers['content-type']), /^text\/html/)
  assert.match(page.body, /swagger-ui/i)
  const asset = await request(port, { path: '/docs/static/swagger-ui.css' })
  assert.equal(asset.statusCode, 200)
  assert.match(String(asset.headers['content-type']), /^text\/css/)
  assert.ok(asset.body.length > 1000)
})
