import { test } from 'node:test'
import assert from 'node:assert/strict'
import { BasicTracerProvider, InMemorySpanExporter, ParentBasedSampler, SimpleSpanProcessor, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base'
import { context, propagation, trace, type Attributes } from '@opentelemetry/api'
import { W3CTraceContextPropagator } from '@opentelemetry/core'
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks'
import { AggregationTemporality, MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics'
import trellis from '../../src/index'
import otel from '../../src/otel'

// What the Node SDK registers: W3C trace context and the AsyncLocalStorage context manager.
propagation.setGlobalPropagator(new W3CTraceContextPropagator())
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())

class Reader extends MetricReader {
  constructor () { super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE }) }
  protected async onForceFlush (): Promise<void> {}
  protected async onShutdown (): Promise<void> {}
}

/** ParentBased(TraceIdRatioBased(0.1)), as production runs it, keeping the attributes each decision saw. */
function productionSampler (seen: Attributes[]): Sampler {
  const inner = new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(0.1) })
  return {
    shouldSample (ctx, traceId, name, kind, attributes, links) {
      seen.push({ ...attributes })
      return inner.shouldSample(ctx, traceId, name, kind, attributes, links)
    },
    toString: () => 'recording ParentBased(TraceIdRatioBased(0.1))'
  }
}

const SAMPLED = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
const NOT_SAMPLED = '00-1af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00'

test('ParentBased(TraceIdRatioBased): an unsampled request makes no span and no attribute work, keeps its trace context and is measured', async () => {
  const exporter = new InMemorySpanExporter()
  const seen: Attributes[] = []
  const provider = new BasicTracerProvider({ sampler: productionSampler(seen), spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const reader = new Reader()
  let trustAsked = 0
  // the trust function runs when request.protocol (url.scheme, which samplers see) and request.ip (client.address) are read
  const app = trellis({ trustProxy: () => { trustAsked++; return false } })
  await app.register(otel, { tracerProvider: provider, meterProvider: new MeterProvider({ readers: [reader] }), phaseSpans: true })
  const inHandler: Array<{ traceId?: string, flags?: number }> = []
  app.post('/users/:id', { schema: { body: { type: 'object', properties: { name: { type: 'string' } } } } }, async (request) => {
    const ids = trace.getSpan(context.active())?.spanContext()
    inHandler.push({ traceId: ids?.traceId, flags: ids?.traceFlags })
    return { id: (request.params as { id: string }).id }
  })

  const unsampled = await app.inject({ method: 'POST', url: '/users/1', payload: { name: 'a' }, headers: { traceparent: NOT_SAMPLED, 'x-forwarded-for': '10.0.0.1' } })
  assert.equal(unsampled.statusCode, 200)
  assert.deepEqual(exporter.getFinishedSpans(), [], 'no span, no phase span')
  assert.equal(trustAsked, 1, 'the scheme only: client.address is not computed for a span that does not record')
  assert.deepEqual(seen, [{ 'http.request.method': 'POST', 'url.scheme': 'http', 'http.route': '/users/:id' }], 'the sampler sees method, scheme and route, and decides once')
  assert.deepEqual(inHandler[0], { traceId: '1af7651916cd43dd8448eb211c80319c', flags: 0 }, 'the unsampled trace context is current in the handler, so calls made there propagate it')

  const sampled = await app.inject({ method: 'POST', url: '/users/2', payload: { name: 'b' }, headers: { traceparent: SAMPLED, 'x-forwarded-for': '10.0.0.1' } })
  assert.equal(sampled.statusCode, 200)
  const spans = exporter.getFinishedSpans()
  const server = spans.find((s) => s.name === 'POST /users/:id')
  assert.ok(server !== undefined)
  assert.equal(server.attributes['url.path'], '/users/2')
  assert.equal(server.attributes['http.response.status_code'], 200)
  assert.ok(typeof server.attributes['client.address'] === 'string', 'a recording span gets every attribute')
  assert.ok(trustAsked >= 3, `the sampled request reads the scheme and the client address (trust asked ${trustAsked} times)`)
  assert.deepEqual(spans.map((s) => s.name).filter((n) => n !== 'POST /users/:id').sort(), ['handler', 'parsing', 'routing', 'serialization', 'validation', 'write'])
  assert.deepEqual(inHandler[1], { traceId: '0af7651916cd43dd8448eb211c80319c', flags: 1 })

  // both requests are measured: the duration metric does not depend on sampling
  const { resourceMetrics } = await reader.collect()
  const metric = resourceMetrics.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === 'http.server.request.duration')
  const point = metric?.dataPoints[0] as { value: { count: number } } | undefined
  assert.equal(point?.value.count, 2)
  await app.close()
})

test('TraceIdRatioBased(0.1) on root requests: about one request in ten makes a span', async () => {
  const exporter = new InMemorySpanExporter()
  const provider = new BasicTracerProvider({ sampler: productionSampler([]), spanProcessors: [new SimpleSpanProcessor(exporter)] })
  const app = trellis()
  await app.register(otel, { tracerProvider: provider })
  app.get('/hello', async () => ({ hello: 'world' }))
  for (let i = 0; i < 400; i++) await app.inject({ url: '/hello' })
  const n = exporter.getFinishedSpans().length
  // binomial(400, 0.1): mean 40, standard deviation 6; 15..70 is more than 4 deviations each way
  assert.ok(n >= 15 && n <= 70, `${n} spans of 400 requests`)
  await app.close()
})
