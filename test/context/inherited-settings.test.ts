import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { logCollector } from '../helpers'

test('setGenReqId is encapsulated: a child and its routes/404s use its generator, the parent and siblings keep theirs', async () => {
  const app: any = trellis()
  let n = 0
  app.setGenReqId(() => `root-${++n}`)
  app.get('/', async (req: any) => req.id)
  app.register(async (child: any) => {
    child.setGenReqId(function (this: any, req: any) { return `child-${req.url}-${this === child}` })
    child.get('/c', async (req: any) => req.id)
    child.register(async (grand: any) => { grand.get('/g', async (req: any) => req.id) })
  }, { prefix: '/p' })
  app.register(async (sibling: any) => { sibling.get('/s', async (req: any) => req.id) })
  assert.equal((await app.inject('/')).payload, 'root-1')
  assert.equal((await app.inject('/p/c')).payload, 'child-/p/c-true')
  assert.equal((await app.inject('/p/g')).payload, 'child-/p/g-true', 'inherited by a grandchild')
  assert.equal((await app.inject('/s')).payload, 'root-2')
  assert.equal((await app.inject({ url: '/', headers: { 'request-id': 'from-header' } })).payload, 'from-header', 'requestIdHeader still wins')
  assert.equal(typeof app.genReqId, 'function')
  assert.throws(() => app.setGenReqId(() => 'x'), { code: 'FST_ERR_INSTANCE_ALREADY_LISTENING' })
})

test('setChildLoggerFactory and the route option childLoggerFactory make the request loggers (encapsulated)', async () => {
  const logs = logCollector()
  const app: any = trellis({ logger: { level: 'info', stream: logs.stream } })
  const calls: string[] = []
  app.setChildLoggerFactory(function (this: any, logger: any, bindings: any, opts: any, rawReq: any) {
    calls.push(`root:${rawReq.url}:${this === app}`)
    const child = logger.child(bindings, opts)
    child.fromFactory = 'root'
    return child
  })
  app.get('/', async (req: any) => req.log.fromFactory)
  app.get('/route', {
    childLoggerFactory (logger: any, bindings: any, opts: any) { const c = logger.child({ ...bindings, route: true }, opts); c.fromFactory = 'route'; return c }
  }, async (req: any) => { req.log.info('hello'); return req.log.fromFactory })
  app.register(async (child: any) => {
    child.setChildLoggerFactory((logger: any, bindings: any, opts: any) => { const c = logger.child(bindings, opts); c.fromFactory = 'child'; return c })
    child.get('/child', async (req: any) => req.log.fromFactory)
  })
  assert.equal((await app.inject('/')).payload, 'root')
  assert.equal((await app.inject('/route')).payload, 'route')
  assert.equal((await app.inject('/child')).payload, 'child')
  assert.deepEqual(calls, ['root:/:true'])
  assert.ok(logs.lines.some((l) => l.msg === 'hello' && l.route === true && typeof l.reqId === 'string'))
  assert.equal(typeof app.childLoggerFactory, 'function')
})

test('a child logger factory that returns no logger: 500 FST_ERR_LOG_INVALID_LOGGER, the server keeps answering', async () => {
  const app: any = trellis()
  app.setChildLoggerFactory(() => undefined)
  app.get('/', async () => 'never')
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.json().code, 'FST_ERR_LOG_INVALID_LOGGER')
  assert.equal((await app.inject('/')).statusCode, 500)
})

test('findRoute: the matching route pattern gives { handler, params, searchParams }, a copy; null otherwise', async () => {
  const app: any = trellis()
  const handler = async (): Promise<string> => 'x'
  app.get('/artists/:artistId', handler)
  const route = app.findRoute({ method: 'GET', url: '/artists/:artistId' })
  assert.equal(route.handler, handler)
  assert.deepEqual(route.params, { artistId: ':artistId' })
  route.params.other = 'changed'
  assert.deepEqual(app.findRoute({ method: 'GET', url: '/artists/:artistId' }).params, { artistId: ':artistId' })
  assert.equal(app.findRoute({ method: 'POST', url: '/artists/:artistId' }), null)
  assert.equal(app.findRoute({ method: 'GET', url: '/nothing' }), null)
  assert.equal('store' in route, false)
})

test('Symbol.asyncDispose closes the instance', async () => {
  const app: any = trellis()
  let closed = false
  app.addHook('onClose', (_i: unknown, done: () => void) => { closed = true; done() })
  await app.ready()
  await app[Symbol.asyncDispose]()
  assert.equal(closed, true)
})
