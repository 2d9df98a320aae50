import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import trellis from '../../src/index'
import { logCollector } from '../helpers'

test('onListen hooks run after listen, parent before children, `this` their own instance, not before ready()', async () => {
  const app: any = trellis()
  const order: string[] = []
  app.addHook('onListen', function (this: any, done: () => void) { order.push('root:' + (this === app)); done() })
  await app.register(async (child: any) => {
    child.addHook('onListen', async function (this: any) { order.push('child:' + (this === child)) })
  })
  await app.ready()
  assert.deepEqual(order, [], 'ready() does not run onListen hooks')
  await app.listen({ port: 0, host: '127.0.0.1' })
  await new Promise((resolve) => setImmediate(resolve))
  assert.deepEqual(order, ['root:true', 'child:true'])
  await app.close()
})

test('onListen: a failing hook is logged and the next one still runs; listen() does not wait for a slow hook', async () => {
  const logs = logCollector()
  const app: any = trellis({ logger: { level: 'error', stream: logs.stream } })
  const order: string[] = []
  app.addHook('onListen', function () { order.push('1'); throw new Error('FAIL ON LISTEN') })
  app.addHook('onListen', async function () { order.push('2'); await new Promise(() => {}) }) // never settles
  app.addHook('onListen', function (done: () => void) { order.push('3'); done() })
  let called = false
  await new Promise<void>((resolve, reject) => app.listen({ port: 0, host: '127.0.0.1' }, (err: Error | null) => { if (err) reject(err); else { called = true; resolve() } }))
  assert.equal(called, true)
  await new Promise((resolve) => setTimeout(resolve, 10))
  assert.deepEqual(order, ['1', '2'], 'a hook that never settles holds only the hooks after it, not listen()')
  assert.ok(logs.lines.some((l: any) => l.msg === 'FAIL ON LISTEN' && l.level === 50))
  await app.close()
})

test('an async onListen/onReady hook that also takes done is refused with FST_ERR_HOOK_INVALID_ASYNC_HANDLER', () => {
  const app: any = trellis()
  assert.throws(() => app.addHook('onListen', async (_done: unknown) => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  assert.throws(() => app.addHook('preHandler', async (_a: unknown, _b: unknown, _done: unknown) => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  assert.throws(() => app.addHook('onRequestAbort', async (_a: unknown, _done: unknown) => {}), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
  assert.throws(() => app.get('/', { onSend: async (_a: unknown, _b: unknown, _c: unknown, _d: unknown) => {} }, async () => 'x'), { code: 'FST_ERR_HOOK_INVALID_ASYNC_HANDLER' })
})

test('hook checks follow Fastify 4.29: missing function, unknown name, non-function', () => {
  const app: any = trellis()
  assert.throws(() => app.addHook('onRequest'), { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'onRequest hook should be a function, instead got undefined' })
  assert.throws(() => app.addHook('onNothing', () => {}), { code: 'FST_ERR_HOOK_NOT_SUPPORTED', message: 'onNothing hook not supported!' })
  assert.throws(() => app.addHook('onRequest', 'x'), { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'onRequest hook should be a function, instead got [object String]' })
  assert.throws(() => app.get('/', { preHandler: [() => {}, 42] }, async () => 'x'), { code: 'FST_ERR_HOOK_INVALID_HANDLER', message: 'preHandler hook should be a function, instead got [object Number]' })
})

test('preClose hooks run at close() before the server stops accepting, parents first', async () => {
  const app: any = trellis()
  const order: string[] = []
  app.get('/', async () => 'ok')
  app.addHook('preClose', function (this: any, done: () => void) {
    order.push('root:' + app.server.listening)
    done()
  })
  app.register(async (child: any) => { child.addHook('preClose', async () => { order.push('child') }) })
  app.addHook('onClose', (_i: unknown, done: () => void) => { order.push('onClose'); done() })
  await app.listen({ port: 0, host: '127.0.0.1' })
  await app.close()
  assert.deepEqual(order, ['root:true', 'child', 'onClose'])
})

test('onRequestAbort hooks run when the client goes away before the response, with the request; not otherwise', async () => {
  const app: any = trellis()
  const aborted: string[] = []
  let release!: () => void
  const handlerStarted = new Promise<void>((resolve) => { release = resolve })
  app.addHook('onRequestAbort', function (this: any, request: any, done: () => void) {
    aborted.push(request.url + ':' + (this === app))
    done()
  })
  app.get('/slow', async () => { release(); await new Promise((resolve) => setTimeout(resolve, 200)); return 'late' })
  app.get('/fast', async () => 'ok')
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = app.addresses()[0].port
  const fast = await fetch(`http://127.0.0.1:${port}/fast`)
  assert.equal(await fast.text(), 'ok')
  const req = http.get({ host: '127.0.0.1', port, path: '/slow', agent: false })
  req.on('error', () => {})
  await handlerStarted
  req.destroy()
  await new Promise((resolve) => setTimeout(resolve, 100))
  assert.deepEqual(aborted, ['/slow:true'])
  await app.close()
})
