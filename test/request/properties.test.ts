import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

test('request exposes id, params, query, body, headers, url, method, routerPath, routeConfig, raw, server, log', async () => {
  const app = trellis({ genReqId: () => 'rid' })
  app.post('/items/:id', { config: { tag: 'items' } }, async function (req) {
    assert.equal(req.server, this)
    assert.equal(req.raw.url, '/items/7?x=1&x=2&y=z')
    assert.equal(typeof req.log.info, 'function')
    return {
      id: req.id,
      params: req.params,
      query: req.query,
      body: req.body,
      header: req.headers['x-test'],
      url: req.url,
      method: req.method,
      routerPath: req.routerPath,
      tag: req.routeConfig.tag
    }
  })
  const res = await app.inject({ method: 'POST', url: '/items/7?x=1&x=2&y=z', payload: { a: 1 }, headers: { 'x-test': 'yes' } })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), {
    id: 'rid',
    params: { id: '7' },
    query: { x: ['1', '2'], y: 'z' },
    body: { a: 1 },
    header: 'yes',
    url: '/items/7?x=1&x=2&y=z',
    method: 'POST',
    routerPath: '/items/:id',
    tag: 'items'
  })
  await app.close()
})

test('request.ip, ips, hostname and protocol over a real socket', async () => {
  const app = trellis()
  app.get('/', async (req) => ({ ip: req.ip, ips: req.ips ?? null, hostname: req.hostname, protocol: req.protocol }))
  const { port } = await listen(app)
  try {
    const res = await request(port)
    assert.deepEqual(JSON.parse(res.body), { ip: '127.0.0.1', ips: null, hostname: `127.0.0.1:${port}`, protocol: 'http' })
  } finally { await app.close() }
})

test('routerPath and routeConfig inside a prefixed plugin include the prefix', async () => {
  const app = trellis()
  app.register(async (child) => {
    child.get('/:name', { config: { level: 2 } }, async (req) => ({ routerPath: req.routerPath, config: req.routeConfig }))
  }, { prefix: '/v1' })
  const res = await app.inject('/v1/abc')
  assert.equal(res.json().routerPath, '/v1/:name')
  assert.equal(res.json().config.level, 2)
  assert.equal(res.json().config.url, '/v1/:name')
  assert.equal(res.json().config.method, 'GET')
  await app.close()
})

test('a querystring without values and an empty querystring', async () => {
  const app = trellis()
  app.get('/', async (req) => ({ query: req.query }))
  assert.deepEqual((await app.inject('/?flag')).json(), { query: { flag: '' } })
  assert.deepEqual((await app.inject('/')).json(), { query: {} })
  await app.close()
})

test('custom querystringParser option', async () => {
  const app = trellis({ querystringParser: (q: string) => ({ raw: q }) })
  app.get('/', async (req) => req.query)
  assert.deepEqual((await app.inject('/?a=1&b')).json(), { raw: 'a=1&b' })
  await app.close()
})

test('Request and Reply keep one shape: value decorators are fields set by the constructor, methods stay on the prototype', async () => {
  const app = trellis()
  app.decorateRequest('user', null)
  app.decorateRequest('greet', function () { return 'hi' })
  app.decorateReply('extra', null)
  const requests: any[] = []
  const replies: any[] = []
  let n = 0
  app.addHook('preHandler', async (req: any, reply: any) => {
    // every other request assigns the decorated fields: the shape must not depend on it
    if (n++ % 2 === 1) { req.user = { id: 1 }; reply.extra = 'x' }
  })
  app.get('/a', async (req, reply) => { requests.push(req); replies.push(reply); return 'a' })
  app.post('/b', async (req, reply) => { requests.push(req); replies.push(reply); return 'b' })
  await app.inject('/a')
  await app.inject({ method: 'POST', url: '/b', payload: { x: 1 } })
  await app.close()
  assert.deepEqual(Object.keys(requests[0]), Object.keys(requests[1]))
  assert.deepEqual(Object.keys(replies[0]), Object.keys(replies[1]))
  assert.equal(Object.getPrototypeOf(requests[0]), Object.getPrototypeOf(requests[1]))
  assert.ok(Object.prototype.hasOwnProperty.call(requests[0], 'user'))
  assert.equal(requests[0].user, null)
  assert.deepEqual(requests[1].user, { id: 1 })
  assert.ok(!Object.prototype.hasOwnProperty.call(requests[0], 'greet'))
  assert.equal(requests[0].greet(), 'hi')
  assert.ok(Object.prototype.hasOwnProperty.call(replies[0], 'extra'))
})

test('V8 sees one hidden class for requests and replies whose decorated fields were assigned (built package, %HaveSameMap)', () => {
  const entry = join(__dirname, '..', '..', 'dist', 'entry', 'index.cjs')
  assert.ok(existsSync(entry), 'dist/ is missing: run `npm run build` first (npm test builds before testing)')
  const script = `
    const app = require(${JSON.stringify(entry)})()
    app.decorateRequest('user', null); app.decorateReply('extra', null)
    let first = null; let same = []
    app.addHook('preHandler', (req, reply, done) => { if (first) { req.user = 'u'; reply.extra = 'e' } done() })
    app.get('/', (req, reply) => {
      if (first) same.push(%HaveSameMap(first.req, req), %HaveSameMap(first.reply, reply))
      else first = { req, reply }
      reply.send('ok')
    })
    app.inject('/').then(() => app.inject('/')).then(() => { console.log(JSON.stringify(same)) })
  `
  const result = spawnSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8', timeout: 30000 })
  assert.equal(result.status, 0, result.stderr)
  assert.deepEqual(JSON.parse(result.stdout.trim()), [true, true])
})
