/**
 * @fastify/express 3 (`fastify: '4.x'`) on trellis: an Express Router and Express middleware
 * mounted with app.use run before trellis routes (headers, req/res decorations, short-circuit
 * answers from Express routes), and trellis routes still answer; over a real socket.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin, pluginPath } from './target'
import { listen, request } from '../helpers'

// express is @fastify/express's own dependency
const express = require(require.resolve('express', { paths: [pluginPath('@fastify/express')] }))

test('an Express router and middleware in front of trellis routes (real socket)', async (t) => {
  const app: any = trellis()
  await app.register(plugin('@fastify/express'))
  const router = express.Router()
  router.use((req: any, res: any, next: () => void) => { res.setHeader('x-express', 'yes'); req.viaExpress = true; next() })
  router.get('/legacy/:id', (req: any, res: any) => { res.status(201).json({ legacy: req.params.id }) })
  app.use(router)
  app.get('/modern', async (req: any) => ({ modern: true, viaExpress: req.raw.viaExpress === true }))
  t.after(() => app.close())
  const { port } = await listen(app)
  const legacy = await request(port, { path: '/legacy/7' })
  assert.equal(legacy.statusCode, 201)
  assert.equal(legacy.headers['x-express'], 'yes')
  assert.deepEqual(JSON.parse(legacy.body), { legacy: '7' })
  const modern = await request(port, { path: '/modern' })
  assert.equal(modern.statusCode, 200)
  assert.equal(modern.headers['x-express'], 'yes')
  assert.deepEqual(JSON.parse(modern.body), { modern: true, viaExpress: true })
  assert.equal((await request(port, { path: '/nowhere' })).statusCode, 404)
})
