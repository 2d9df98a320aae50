import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

test('request.originalUrl is the URL the client sent, before rewriteUrl (inject and a real socket)', async () => {
  const app: any = trellis({ rewriteUrl: (req: any) => req.url === '/old?x=1' ? '/new?x=1' : req.url })
  app.get('/new', async (req: any) => ({ url: req.url, originalUrl: req.originalUrl }))
  app.get('/plain', async (req: any) => ({ url: req.url, originalUrl: req.originalUrl }))
  assert.deepEqual((await app.inject('/old?x=1')).json(), { url: '/new?x=1', originalUrl: '/old?x=1' })
  assert.deepEqual((await app.inject('/plain?y')).json(), { url: '/plain?y', originalUrl: '/plain?y' })
  const { port } = await listen(app)
  try {
    const res = await request(port, { path: '/old?x=1' })
    assert.deepEqual(JSON.parse(res.body), { url: '/new?x=1', originalUrl: '/old?x=1' })
  } finally {
    await app.close()
  }
})

test('request.originalUrl without rewriteUrl equals request.url', async () => {
  const app: any = trellis()
  app.get('/a/:id', async (req: any) => ({ same: req.originalUrl === req.url, originalUrl: req.originalUrl }))
  assert.deepEqual((await app.inject('/a/1?q=2')).json(), { same: true, originalUrl: '/a/1?q=2' })
})

test('a rewriteUrl that returns a non-string destroys the request with FST_ERR_ROUTE_REWRITE_NOT_STR (nothing is routed)', async () => {
  let logged: any
  const app: any = trellis({ rewriteUrl: () => 42 as never })
  let handled = false
  app.get('/', async () => { handled = true; return 'x' })
  const { port } = await listen(app)
  try {
    app.server.on('request', (req: any) => { req.on('error', (err: any) => { logged = err }) })
    await assert.rejects(request(port, { path: '/' }))
    await new Promise((resolve) => setTimeout(resolve, 20))
    assert.equal(handled, false)
    assert.equal(logged?.code, 'FST_ERR_ROUTE_REWRITE_NOT_STR')
    assert.equal(logged?.message, 'Rewrite url for "/" needs to be of type "string" but received "number"')
  } finally {
    await app.close()
  }
})
