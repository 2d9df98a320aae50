import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import { OtlpReceiver, traceDump, type ReceivedSpan } from './otlp-receiver'
import { request } from '../helpers'

const SERVICE = join(__dirname, 'fixtures', 'service.ts')
const SERVER = 2
const INTERNAL = 1
const CLIENT = 3
const ERROR = 2

async function startService (env: Record<string, string>): Promise<{ child: ChildProcess, port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVICE], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += String(c)
      const line = out.split('\n').find((l) => l.startsWith('{"port"'))
      if (line !== undefined) resolve((JSON.parse(line) as { port: number }).port)
    })
    child.once('exit', (code) => reject(new Error(`${env.SERVICE_NAME} exited (${String(code)}) before listening: ${out}`)))
  })
  return { child, port }
}

async function stop (child: ChildProcess): Promise<void> {
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  const [code] = await exited
  assert.equal(code, 0, 'the service flushed its exporters and exited cleanly')
}

test('two trellis processes export one trace over OTLP/HTTP: span tree, attributes, propagation, errors, duration metric, log ids', async () => {
  const receiver = new OtlpReceiver()
  const otlp = await receiver.start()
  const back = await startService({ OTLP_URL: otlp, SERVICE_NAME: 'back', PHASE_SPANS: '1' })
  const front = await startService({ OTLP_URL: otlp, SERVICE_NAME: 'front', HTTP_INSTRUMENTATION: '1', BACK_URL: `http://127.0.0.1:${back.port}` })
  let logs: Array<Record<string, unknown>> = []
  try {
    const res = await request(front.port, { path: '/front/42', headers: { 'user-agent': 'e2e-test' } })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(JSON.parse(res.body), { user: { id: 42, name: 'Ada' }, boom: 500 })
    logs = JSON.parse((await request(back.port, { path: '/logs' })).body)
  } finally {
    await Promise.all([stop(front.child), stop(back.child)])
    await receiver.stop()
  }
  console.log(traceDump(receiver.spans))
  assert.ok(receiver.requests.every((r) => r.endsWith('application/json')), 'OTLP/HTTP JSON export requests')

  const spans = receiver.spans
  const find = (service: string, pred: (s: ReceivedSpan) => boolean, what: string): ReceivedSpan => {
    const found = spans.find((s) => s.service === service && pred(s))
    assert.ok(found !== undefined, `${service}: ${what}\n${traceDump(spans)}`)
    return found
  }
  // front: the node:http instrumentation's SERVER span, trellis's span as its child (named by the route)
  const httpSpan = find('front', (s) => s.kind === SERVER, 'the node:http SERVER span')
  assert.equal(httpSpan.name, 'GET /front/:id')
  assert.equal(httpSpan.attributes['http.route'], '/front/:id')
  const frontSpan = find('front', (s) => s.kind === INTERNAL && s.parentSpanId === httpSpan.spanId, 'the trellis span under the http span')
  assert.equal(frontSpan.name, 'GET /front/:id')
  assert.equal(frontSpan.attributes['http.route'], '/front/:id')
  assert.equal(frontSpan.attributes['http.request.method'], 'GET')
  assert.equal(frontSpan.attributes['url.path'], '/front/42')
  assert.equal(frontSpan.attributes['http.response.status_code'], 200)
  assert.equal(frontSpan.attributes['user_agent.original'], 'e2e-test')
  assert.equal(frontSpan.attributes['server.address'], '127.0.0.1')
  assert.equal(frontSpan.attributes['server.port'], front.port)
  // the handler's calls out are children of trellis's span (it is current in the handler)
  const calls = spans.filter((s) => s.service === 'front' && s.kind === CLIENT)
  assert.equal(calls.length, 2)
  for (const call of calls) assert.equal(call.parentSpanId, frontSpan.spanId)

  // back: SERVER spans continuing the front's trace from traceparent
  const userSpan = find('back', (s) => s.name === 'GET /users/:id', 'the /users/:id span')
  assert.equal(userSpan.kind, SERVER)
  assert.equal(userSpan.traceId, httpSpan.traceId, 'one trace across both processes')
  assert.ok(calls.some((c) => c.spanId === userSpan.parentSpanId), 'its parent is the front\'s client span')
  assert.equal(userSpan.attributes['http.response.status_code'], 200)
  assert.equal(userSpan.attributes['url.scheme'], 'http')
  assert.equal(userSpan.attributes['network.protocol.version'], '1.1')
  assert.equal(userSpan.status.code ?? 0, 0, 'a 2xx leaves the status unset')
  // phase spans (phaseSpans: true) under it, in the order the request ran them
  // phases start in this order; two may share a start time (the clock's resolution): that is no
  // disorder, so a tie keeps the expected order
  const expected = ['routing', 'validation', 'preHandler', 'handler', 'serialization', 'write']
  const phases = spans.filter((s) => s.parentSpanId === userSpan.spanId)
    .sort((a, b) => Number(a.start - b.start) || expected.indexOf(a.name) - expected.indexOf(b.name)).map((s) => s.name)
  assert.deepEqual(phases, expected)

  const boomSpan = find('back', (s) => s.name === 'GET /boom', 'the /boom span')
  assert.equal(boomSpan.traceId, httpSpan.traceId)
  assert.equal(boomSpan.status.code, ERROR)
  assert.equal(boomSpan.status.message, 'the back service failed')
  assert.equal(boomSpan.attributes['http.response.status_code'], 500)
  assert.equal(boomSpan.attributes['error.type'], 'Error')
  const exception = boomSpan.events.find((e) => e.name === 'exception')
  assert.equal(exception?.attributes['exception.message'], 'the back service failed')
  const handler = spans.find((s) => s.parentSpanId === boomSpan.spanId && s.name === 'handler')
  assert.ok(handler?.events.some((e) => e.name === 'exception'), 'the handler phase span records the throw')

  // the duration histogram, by route and status
  const points = receiver.points.filter((p) => p.service === 'back' && p.metric === 'http.server.request.duration')
  const users = points.find((p) => p.attributes['http.route'] === '/users/:id')
  assert.equal(users?.unit, 's')
  assert.equal(users?.count, 1)
  assert.equal(users?.attributes['http.response.status_code'], 200)
  assert.equal(users?.attributes['http.request.method'], 'GET')
  assert.ok(users!.sum > 0 && users!.sum < 5, `a duration in seconds: ${String(users?.sum)}`)
  const boom = points.find((p) => p.attributes['http.route'] === '/boom')
  assert.equal(boom?.attributes['http.response.status_code'], 500)
  assert.equal(boom?.attributes['error.type'], 'Error')

  // logs meet traces: the back's request log lines carry the ids of their request's span
  const reading = logs.find((l) => l.msg === 'reading a user')
  assert.equal(reading?.trace_id, userSpan.traceId)
  assert.equal(reading?.span_id, userSpan.spanId)
  assert.equal(reading?.trace_flags, '01')
  const incoming = logs.filter((l) => l.msg === 'incoming request' && l.trace_id === userSpan.traceId)
  assert.equal(incoming.length, 2, 'both requests of the trace logged with its id')
  const completed = logs.find((l) => l.msg === 'request completed' && l.span_id === boomSpan.spanId)
  assert.ok(completed !== undefined, 'the completion line too')
})
