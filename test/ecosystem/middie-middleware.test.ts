/**
 * @fastify/middie 8 (`fastify: '4.x'`) on trellis: connect/express-style middleware run before the
 * routes (path-scoped, in order, able to set headers or end the response), encapsulated in the
 * plugin that adds them, errors passed to next() reach the error handler; over a real socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen, request } from '../helpers'

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/middie'))
  app.use((req: any, res: any, next: () => void) => { res.setHeader('x-first', '1'); req.order = ['first']; next() })
  app.use('/admin', (req: any, res: any, next: () => void) => {
    if (req.headers['x-admin'] !== 'yes') { res.statusCode = 403; res.end('forbidden'); return }
    next()
  })
  app.use('/fail', (_req: any, _res: any, next: (err?: Error) => void) => next(new Error('middleware failed')))
  app.get('/', async (req: any) => ({ order: req.raw.order }))
  app.get('/admin/panel', async () => ({ panel: true }))
  app.get('/fail', async () => ({ never: true }))
  await app.register(async (child: any) => {
    child.use((_req: any, res: any, next: () => void) => { res.setHeader('x-child', '1'); next() })
    child.get('/child', async () => ({ child: true }))
  })
  return app
}

test('middleware order, path scoping, ending a response, errors and encapsulation (real socket)', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const root = await request(port, { path: '/' })
  assert.equal(root.headers['x-first'], '1')
  assert.deepEqual(JSON.parse(root.body), { order: ['first'] })
  assert.equal(root.headers['x-child'], undefined)
  const denied = await request(port, { path: '/admin/panel' })
  assert.equal(denied.statusCode, 403)
  assert.equal(denied.body, 'forbidden')
  const allowed = await request(port, { path: '/admin/panel', headers: { 'x-admin': 'yes' } })
  assert.deepEqual(JSON.parse(allowed.body), { panel: true })
  const failed = await request(port, { path: '/fail' })
  assert.equal(failed.statusCode, 500)
  assert.equal(JSON.parse(failed.body).message, 'middleware failed')
  const child = await request(port, { path: '/child' })
  assert.equal(child.headers['x-child'], '1')
  assert.equal(child.headers['x-first'], '1')
})

test('under inject too', async () => {
  const app = await build()
  const res = await app.inject({ url: '/admin/panel' })
  assert.equal(res.statusCode, 403)
  await app.close()
})
