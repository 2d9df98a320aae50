import { test } from 'node:test'
import net from 'node:net'
import assert from 'node:assert/strict'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import trellis from '../../src/index'
import otel from '../../src/otel'
import { captureLogs } from './capture'

// what the SDK registers: W3C trace context
propagation.setGlobalPropagator(new W3CTraceContextPropagator())

function setup (): { exporter: InMemorySpanExporter, provider: BasicTracerProvider } {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  return { exporter, provider }
}

test('one SERVER span per request by default, named by method and route, with traceparent as parent', async () => {
  const { exporter, provider } = setup()
  const app = trellis()
  await app.register(otel, { tracerProvider: provider })
  app.get('/users/:id', async () => ({ ok: true }))
  app.post('/fail', async () => { throw Object.assign(new Error('teapot'), { statusCode: 418 }) })
  const traceId = '0af7651916cd43dd8448eb211c80319c'
  await app.inject({ method: 'GET', url: '/users/1?x=2', headers: { traceparent: `00-${traceId}-b7ad6b7169203331-01`, host: 'example.com:8080' } })
  await app.inject({ method: 'GET', url: '/nowhere' })
  await app.inject({ method: 'POST', url: '/fail' })
  const spans = exporter.getFinishedSpans()
  assert.deepEqual(spans.map((s) => s.name), ['GET /users/:id', 'GET', 'POST /fail'])
  const [user, missing, fail] = spans
  assert.equal(user.kind, SpanKind.SERVER)
  assert.equal(user.spanContext().traceId, traceId)
  assert.equal(user.parentSpanContext?.spanId, 'b7ad6b7169203331')
  assert.deepEqual(
    { ...user.attributes, 'client.address': undefined, 'network.peer.address': undefined },
    {
      'http.request.method': 'GET',
      'url.path': '/users/1',
      'url.query': 'x=2',
      'url.scheme': 'http',
      'network.protocol.version': '1.1',
      'server.address': 'example.com',
      'server.port': 8080,
      'http.route': '/users/:id',
      'http.response.status_code': 200,
      'user_agent.original': 'lightMyRequest',
      'client.address': undefined,
      'network.peer.address': undefined
    })
  assert.equal(missing.attributes['http.route'], undefined, 'a 404 has no route')
  assert.equal(missing.attributes['http.response.status_code'], 404)
  assert.equal(missing.status.code, SpanStatusCode.UNSET, 'a 4xx is not a server span error')
  assert.equal(fail.attributes['http.response.status_code'], 418)
  assert.equal(fail.status.code, SpanStatusCode.UNSET)
  assert.equal(fail.events[0]?.name, 'exception', 'the error is recorded')
  await app.close()
  await app.close()
})

test('ignore, another application in the process, and close: no spans for what is not this app\'s', async () => {
  const { exporter, provider } = setup()
  const app = trellis()
  const asked: string[] = []
  await app.register(otel, { tracerProvider: provider, ignore: (req) => { asked.push(req.url ?? ''); return req.url === '/health' } })
  app.get('/health', () => 'ok')
  app.get('/work', () => 'ok')
  const other = trellis()
  other.get('/work', () => 'ok')
  await app.inject({ url: '/health' })
  await other.inject({ url: '/work' })
  await app.inject({ url: '/work' })
  assert.deepEqual(exporter.getFinishedSpans().map((s) => s.name), ['GET /work'])
  assert.deepEqual(asked, ['/health', '/work'], 'ignore is asked once per request of this application')
  await app.close()
  const closed = trellis()
  closed.get('/work', () => 'ok')
  await closed.inject({ url: '/work' })
  assert.equal(exporter.getFinishedSpans().length, 1, 'closing the application unsubscribed')
  await other.close()
  await closed.close()
})

test('http.server.request.duration: one data point per route, method, status and error type', async () => {
  const { provider } = setup()
  const reader = new class extends MetricReader {
    protected async onForceFlush (): Promise<void> {}
    protected async onShutdown (): Promise<void> {}
  }()
  const meterProvider = new MeterProvider({ readers: [reader] })
  const app = trellis()
  await app.register(otel, { tracerProvider: provider, meterProvider })
  app.get('/users/:id', async (request) => {
    const { id } = request.params as { id: string }
    if (id === 'boom') throw new TypeError('no such user')
    if (id === 'teapot') return await Promise.reject(Object.assign(new Error('short and stout'), { statusCode: 418 }))
    return { id }
  })
  app.post('/users/:id', async () => ({ created: true }))
  for (const url of ['/users/1', '/users/2', '/users/boom', '/users/3', '/users/teapot', '/users/boom', '/nowhere']) await app.inject({ url })
  await app.inject({ method: 'POST', url: '/users/4' })
  const { resourceMetrics } = await reader.collect()
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'http.server.request.duration')
  assert.ok(metric !== undefined)
  assert.equal(metric.descriptor.unit, 's')
  const points = metric.dataPoints.map((p) => ({ ...p.attributes, count: (p.value as { count: number }).count }))
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)))
  const base = { 'url.scheme': 'http', 'network.protocol.version': '1.1' }
  assert.deepEqual(points, [
    { ...base, 'http.request.method': 'GET', 'http.response.status_code': 200, 'http.route': '/users/:id', count: 3 },
    { ...base, 'http.request.method': 'GET', 'http.response.status_code': 404, count: 1 },
    { ...base, 'http.request.method': 'GET', 'http.response.status_code': 418, 'http.route': '/users/:id', count: 1 },
    { ...base, 'http.request.method': 'GET', 'http.response.status_code': 500, 'http.route': '/users/:id', 'error.type': 'TypeError', count: 2 },
    { ...base, 'http.request.method': 'POST', 'http.response.status_code': 200, 'http.route': '/users/:id', count: 1 }
  ].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))))
  await app.close()
  await meterProvider.shutdown()
})

test('phaseSpans: a child per phase, a failing phase records its error; 5xx sets ERROR and error.type', async () => {
  const { exporter, provider } = setup()
  const app = trellis()
  await app.register(otel, { tracerProvider: provider, phaseSpans: true })
  app.addHook('onRequest', (_req, _reply, done) => { done() })
  app.get('/boom', { preHandler: async () => { throw new TypeError('bad hook') } }, () => 'never')
  const res = await app.inject({ url: '/boom' })
  assert.equal(res.statusCode, 500)
  const spans = exporter.getFinishedSpans()
  const root = spans.find((s) => s.name === 'GET /boom')!
  assert.equal(root.status.code, SpanStatusCode.ERROR)
  assert.equal(root.attributes['error.type'], 'TypeError')
  const children = spans.filter((s) => s.parentSpanContext?.spanId === root.spanContext().spanId)
  assert.deepEqual(children.map((s) => s.name).sort(), ['handler', 'onRequest', 'preHandler', 'routing', 'write'].sort())
  assert.equal(children.find((s) => s.name === 'preHandler')!.events[0]?.name, 'exception')
  await app.close()
})

test('log lines of a traced request carry trace_id and span_id; logCorrelation: false leaves them out', async () => {
  for (const logCorrelation of [true, false]) {
    const { exporter, provider } = setup()
    const { stream, lines } = captureLogs()
    const app = trellis({ logger: { level: 'info', stream } as { level: string } })
    await app.register(otel, { tracerProvider: provider, logCorrelation })
    app.get('/', (request) => { request.log.info('inside'); return 'ok' })
    await app.inject({ url: '/' })
    const span = exporter.getFinishedSpans()[0].spanContext()
    const inside = lines().find((l) => l.msg === 'inside')!
    if (logCorrelation) {
      assert.equal(inside.trace_id, span.traceId)
      assert.equal(inside.span_id, span.spanId)
      assert.equal(lines().filter((l) => l.trace_id === span.traceId).length, 3, 'incoming, inside, completed')
    } else {
      assert.equal(inside.trace_id, undefined)
    }
    await app.close()
    app.log.info('after close')
    assert.equal(lines().at(-1)!.trace_id, undefined)
  }
})

test('a client that closes the connection before the response ends the span with error.type aborted', async () => {
  const { exporter, provider } = setup()
  const app = trellis()
  await app.register(otel, { tracerProvider: provider })
  let release: () => void = () => {}
  const reached = new Promise<void>((resolve) => {
    app.get('/slow', async () => { resolve(); await new Promise<void>((resolve) => { release = resolve }); return 'late' })
  })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as { port: number }).port
  const socket = net.connect(port, '127.0.0.1')
  socket.write('GET /slow HTTP/1.1\r\nhost: localhost\r\n\r\n')
  await reached
  socket.destroy()
  for (let i = 0; i < 100 && exporter.getFinishedSpans().length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10))
  const [span] = exporter.getFinishedSpans()
  assert.equal(span.name, 'GET /slow')
  assert.equal(span.attributes['error.type'], 'aborted')
  assert.equal(span.status.code, SpanStatusCode.ERROR)
  release()
  await app.close()
})
