/**
 * @fastify/view 9 (`fastify: '4.x'`) on trellis with mustache (a dependency-free engine): reply.view
 * renders a template with partials, HTML-escaped data and a text/html content type; defaultContext
 * and reply.locals merge in; app.view renders outside a request; a missing template is a 500.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

// mustache partials are passed per render call
const partials = { partials: { item: 'item.mustache' } }

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/view'), {
    engine: { mustache: require('mustache') },
    root: join(__dirname, 'fixtures', 'views'),
    viewExt: 'mustache',
    defaultContext: { note: 'default note' }
  })
  app.addHook('preHandler', async (_req: any, reply: any) => { reply.locals = { title: 'from locals' } })
  app.get('/page', async (req: any, reply: any) => reply.view('page', { items: ['a', '<b>'], ...(req.query.t ? { title: req.query.t } : {}) }, partials))
  app.get('/missing', async (_req: any, reply: any) => reply.view('nope', {}))
  return app
}

test('reply.view renders with partials, escaping, defaultContext and reply.locals (real socket)', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const res = await request(port, { path: '/page' })
  assert.equal(res.statusCode, 200)
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/)
  assert.equal(res.body, '<h1>from locals</h1><ul><li>a</li><li>&lt;b&gt;</li></ul><p>default note</p>\n')
  const titled = await request(port, { path: '/page?t=Mine' })
  assert.match(titled.body, /^<h1>Mine<\/h1>/)
})

test('app.view renders outside a request; a missing template is a 500', async () => {
  const app = await build()
  await app.ready()
  const html = await app.view('page', { title: 'T', items: [] }, partials)
  assert.equal(html, '<h1>T</h1><ul></ul><p>default note</p>\n')
  const missing = await app.inject({ url: '/missing' })
  assert.equal(missing.statusCode, 500)
  assert.equal(missing.json().statusCode, 500)
  await app.close()
})
