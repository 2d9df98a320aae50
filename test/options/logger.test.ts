import { test } from 'node:test'
import assert from 'node:assert/strict'
import pino from 'pino'
import trellis from '../../src/index'
import { logCollector } from '../helpers'

test('logger: false (default) gives a silent logger with the pino methods', async () => {
  const app = trellis()
  for (const m of ['info', 'error', 'debug', 'fatal', 'warn', 'trace', 'child']) assert.equal(typeof (app.log as any)[m], 'function')
  app.get('/', async (req) => { req.log.info('nothing'); return { ok: true } })
  assert.equal((await app.inject('/')).statusCode, 200)
  await app.close()
})

test('logger: true creates a pino logger at level info', async () => {
  const app = trellis({ logger: true })
  assert.equal(app.log.level, 'info')
  assert.equal(typeof app.log.child, 'function')
  await app.close()
})

test('logger: pino options with a stream; request logs carry reqId', async () => {
  const { stream, lines } = logCollector()
  const app = trellis({ logger: { level: 'info', stream }, genReqId: () => 'the-id' })
  app.get('/', async (req) => { req.log.info({ custom: 1 }, 'in handler'); return { ok: true } })
  await app.inject('/')
  await app.close()
  const inHandler = lines.find((l) => l.msg === 'in handler')
  assert.ok(inHandler)
  assert.equal(inHandler.reqId, 'the-id')
  assert.equal(inHandler.custom, 1)
  const incoming = lines.find((l) => l.msg === 'incoming request')
  assert.ok(incoming)
  assert.equal(incoming.reqId, 'the-id')
  assert.equal(incoming.req.method, 'GET')
  assert.equal(incoming.req.url, '/')
  const completed = lines.find((l) => l.msg === 'request completed')
  assert.ok(completed)
  assert.equal(completed.res.statusCode, 200)
  assert.equal(typeof completed.responseTime, 'number')
})

test('logger level option filters lines', async () => {
  const { stream, lines } = logCollector()
  const app = trellis({ logger: { level: 'warn', stream } })
  app.get('/', async (req) => { req.log.info('hidden'); req.log.warn('shown'); return 'x' })
  await app.inject('/')
  await app.close()
  assert.deepEqual(lines.map((l) => l.msg), ['shown'])
})

test('logger: a pino-compatible instance is used as is', async () => {
  const { stream, lines } = logCollector()
  const logger = pino({ level: 'info' }, stream)
  const app = trellis({ logger: logger as never })
  assert.equal(app.log, logger as never)
  app.get('/', async (req) => { req.log.info('from instance'); return 'x' })
  await app.inject({ url: '/', headers: { 'request-id': 'abc' } })
  await app.close()
  const line = lines.find((l) => l.msg === 'from instance')
  assert.ok(line)
  assert.equal(line.reqId, 'abc')
})

test('requestIdLogLabel renames the id binding', async () => {
  const { stream, lines } = logCollector()
  const app = trellis({ logger: { stream }, requestIdLogLabel: 'traceId', genReqId: () => 'T1' })
  app.get('/', async (req) => { req.log.info('labelled'); return 'x' })
  await app.inject('/')
  await app.close()
  const line = lines.find((l) => l.msg === 'labelled')
  assert.ok(line)
  assert.equal(line.traceId, 'T1')
  assert.equal(line.reqId, undefined)
})

test('disableRequestLogging suppresses incoming/completed lines', async () => {
  const { stream, lines } = logCollector()
  const app = trellis({ logger: { stream }, disableRequestLogging: true })
  app.get('/', async () => 'x')
  await app.inject('/')
  await app.close()
  assert.equal(lines.filter((l) => l.msg === 'incoming request' || l.msg === 'request completed').length, 0)
})

test('disableRequestLogging also silences the default error handler\'s lines and the 404 "Route ... not found" line (Fastify 4.29)', async () => {
  const { stream, lines } = logCollector()
  const app = trellis({ logger: { stream, level: 'info' }, disableRequestLogging: true })
  app.get('/500', (_req, reply) => { reply.code(500).send(new Error('500 error')) })
  app.get('/400', async () => { throw Object.assign(new Error('bad'), { statusCode: 400 }) })
  assert.equal((await app.inject('/500')).statusCode, 500)
  assert.equal((await app.inject('/400')).statusCode, 400)
  assert.equal((await app.inject('/missing')).statusCode, 404)
  assert.equal((await app.inject('/%c0')).statusCode, 400)
  await app.close()
  assert.deepEqual(lines, [])
  // and without the option, the same requests are logged
  const logged = logCollector()
  const loud = trellis({ logger: { stream: logged.stream, level: 'info' } })
  loud.get('/500', (_req, reply) => { reply.code(500).send(new Error('500 error')) })
  await loud.inject('/500')
  await loud.inject('/missing')
  await loud.close()
  assert.ok(logged.lines.some((l) => l.msg === '500 error' && l.level === 50))
  assert.ok(logged.lines.some((l) => l.msg === 'Route GET:/missing not found'))
})

test('a logger object with some of the logger methods but not all is FST_ERR_LOG_INVALID_LOGGER naming the missing ones', () => {
  assert.throws(() => trellis({ logger: console as never }), { code: 'FST_ERR_LOG_INVALID_LOGGER', message: "Invalid logger object provided. The logger instance should have these functions(s): 'fatal,child'." })
  const noChild = { info () {}, error () {}, debug () {}, fatal () {}, warn () {}, trace () {} }
  assert.throws(() => trellis({ logger: noChild as never }), { code: 'FST_ERR_LOG_INVALID_LOGGER', message: /'child'/ })
})

test('logger with both stream and file is refused', () => {
  assert.throws(() => trellis({ logger: { stream: process.stdout, file: '/tmp/x.log' } }), { code: 'FST_ERR_LOG_INVALID_DESTINATION' })
})

test('5xx errors are logged at error level with the error, 4xx at info', async () => {
  const { stream, lines } = logCollector()
  const app = trellis({ logger: { stream } })
  app.get('/boom', async () => { throw new Error('kaboom') })
  app.get('/bad', async () => { throw Object.assign(new Error('nope'), { statusCode: 400 }) })
  await app.inject('/boom')
  await app.inject('/bad')
  await app.close()
  const boom = lines.find((l) => l.msg === 'kaboom')
  assert.ok(boom)
  assert.equal(boom.level, 50)
  assert.equal(boom.err.message, 'kaboom')
  const bad = lines.find((l) => l.msg === 'nope')
  assert.ok(bad)
  assert.equal(bad.level, 30)
})
