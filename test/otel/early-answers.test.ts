import { test } from 'node:test'
import assert from 'node:assert/strict'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base'
import { propagation, SpanKind, SpanStatusCode } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import trellis from '../../src/index'
import trellisV5 from '../../src/v5'
import otel from '../../src/otel'
import { delay, listen, parseRaw, rawRequest, slowRequestInFlight } from '../helpers'

// Requests trellis answers before the request path (no request/reply objects of a route) get a
// SERVER span and a duration measurement as every other request does, over a real socket.

propagation.setGlobalPropagator(new W3CTraceContextPropagator())

class Reader extends MetricReader {
  constructor () { super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE }) }
  protected async onForceFlush (): Promise<void> {}
  protected async onShutdown (): Promise<void> {}
}

function setup (): { exporter: InMemorySpanExporter, provider: BasicTracerProvider, meterProvider: MeterProvider, reader: Reader } {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const reader = new Reader()
  return { exporter, provider, meterProvider: new MeterProvider({ readers: [reader] }), reader }
}

/** The finished spans, once `n` of them have ended (a span ends when its response's connection has finished). */
async function spans (exporter: InMemorySpanExporter, n: number): Promise<ReadableSpan[]> {
  for (let i = 0; i < 100 && exporter.getFinishedSpans().length < n; i++) await delay(10)
  return exporter.getFinishedSpans()
}

/** The status codes of http.server.request.duration's data points. */
async function measuredStatuses (reader: Reader): Promise<unknown[]> {
  const { resourceMetrics } = await reader.collect()
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'http.server.request.duration')
  return (metric?.dataPoints ?? []).map((p) => p.attributes['http.response.status_code'])
}

test('a malformed URL (400) and an HTTP version the server does not serve (505) get a SERVER span with their status', async () => {
  const { exporter, provider, meterProvider, reader } = setup()
  const app = trellis()
  await app.register(otel, { tracerProvider: provider, meterProvider })
  app.get('/users/:id', async () => ({ ok: true }))
  const { port } = await listen(app)
  try {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736'
    const bad = parseRaw(await rawRequest(port, `GET /users/%zz HTTP/1.1\r\nHost: x\r\ntraceparent: 00-${traceId}-00f067aa0ba902b7-01\r\nConnection: close\r\n\r\n`))
    assert.equal(bad.statusCode, 400)
    const version = await rawRequest(port, 'GET /users/1 HTTP/2.0\r\nHost: x\r\nConnection: close\r\n\r\n', 500)
    assert.match(version, /^HTTP\/1\.1 505 /)
    const [urlSpan, versionSpan] = await spans(exporter, 2)
    assert.equal(urlSpan.name, 'GET')
    assert.equal(urlSpan.kind, SpanKind.SERVER)
    assert.equal(urlSpan.spanContext().traceId, traceId, 'the parent is read from traceparent')
    assert.equal(urlSpan.attributes['http.response.status_code'], 400)
    assert.equal(urlSpan.attributes['url.path'], '/users/%zz')
    assert.equal(urlSpan.status.code, SpanStatusCode.UNSET, 'a 4xx is the client\'s error, as on every other request')
    assert.equal(urlSpan.events[0]?.name, 'exception')
    assert.equal(urlSpan.events[0]?.attributes?.['exception.type'], 'FST_ERR_BAD_URL')
    assert.equal(versionSpan.attributes['http.response.status_code'], 505)
    assert.equal(versionSpan.attributes['network.protocol.version'], '2.0')
    assert.equal(versionSpan.status.code, SpanStatusCode.ERROR)
    assert.equal(versionSpan.attributes['error.type'], '505')
    assert.deepEqual((await measuredStatuses(reader)).sort(), [400, 505])
  } finally { await app.close() }
})

test('a 503 while closing (return503OnClosing) gets a SERVER span with status ERROR', async () => {
  const { exporter, provider } = setup()
  const app = trellis()
  await app.register(otel, { tracerProvider: provider })
  const { socket, release, ended } = await slowRequestInFlight(app, (a) => a.get('/fast', async () => 'fast'))
  const closing = app.close()
  await delay(20)
  socket.write('GET /fast HTTP/1.1\r\nHost: x\r\n\r\n')
  await delay(20)
  release()
  await Promise.race([ended, delay(1000)])
  socket.destroy()
  await closing
  const finished = await spans(exporter, 2)
  const fast = finished.find((s) => s.attributes['url.path'] === '/fast')
  assert.ok(fast !== undefined, `a span for the request answered 503: ${finished.map((s) => s.name).join(', ')}`)
  assert.equal(fast.attributes['http.response.status_code'], 503)
  assert.equal(fast.status.code, SpanStatusCode.ERROR)
  assert.equal(fast.kind, SpanKind.SERVER)
  const slow = finished.find((s) => s.attributes['url.path'] === '/slow')
  assert.equal(slow?.attributes['http.response.status_code'], 200, 'the request in flight has its own span')
})

test('Fastify 5: a parameter over maxParamLength (414) gets a SERVER span with its status and error', async () => {
  const { exporter, provider } = setup()
  const app = trellisV5({ maxParamLength: 10 })
  await app.register(otel, { tracerProvider: provider })
  app.get('/users/:id', async () => ({ ok: true }))
  const { port } = await listen(app as unknown as Parameters<typeof listen>[0])
  try {
    const res = parseRaw(await rawRequest(port, `GET /users/${'x'.repeat(40)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`))
    assert.equal(res.statusCode, 414)
    const [span] = await spans(exporter, 1)
    assert.equal(span.name, 'GET')
    assert.equal(span.attributes['http.response.status_code'], 414)
    assert.equal(span.events[0]?.attributes?.['exception.type'], 'FST_ERR_MAX_PARAM_LENGTH')
  } finally { await app.close() }
})

test('early answers of another application, or ignored ones, get no span', async () => {
  const { exporter, provider } = setup()
  const app = trellis()
  await app.register(otel, { tracerProvider: provider, ignore: (req) => req.url === '/users/%yy' })
  app.get('/users/:id', async () => ({ ok: true }))
  const other = trellis()
  other.get('/users/:id', async () => ({ ok: true }))
  const [a, b] = [await listen(app), await listen(other)]
  try {
    assert.equal(parseRaw(await rawRequest(b.port, 'GET /users/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).statusCode, 400)
    assert.equal(parseRaw(await rawRequest(a.port, 'GET /users/%yy HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).statusCode, 400)
    assert.equal(parseRaw(await rawRequest(a.port, 'GET /users/%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).statusCode, 400)
    const finished = await spans(exporter, 1)
    await delay(50)
    assert.deepEqual(exporter.getFinishedSpans().map((s) => s.attributes['url.path']), ['/users/%zz'])
    assert.equal(finished.length, 1)
  } finally { await Promise.all([app.close(), other.close()]) }
})

test('a Host or framing refusal (400 before routing) gets a SERVER span with its framework error', async () => {
  const { exporter, provider } = setup()
  const app = trellisV5()
  await app.register(otel, { tracerProvider: provider })
  app.get('/', async () => ({ ok: true }))
  const { port } = await listen(app as unknown as Parameters<typeof listen>[0])
  try {
    const twoHosts = parseRaw(await rawRequest(port, 'GET / HTTP/1.1\r\nHost: a.example\r\nHost: a.example\r\nConnection: close\r\n\r\n'))
    assert.equal(twoHosts.statusCode, 400)
    const [span] = await spans(exporter, 1)
    assert.equal(span.kind, SpanKind.SERVER)
    assert.equal(span.attributes['http.response.status_code'], 400)
    assert.equal(span.status.code, SpanStatusCode.UNSET)
    assert.equal(span.events[0]?.attributes?.['exception.type'], 'FST_ERR_INVALID_HOST')
  } finally { await app.close() }
})
