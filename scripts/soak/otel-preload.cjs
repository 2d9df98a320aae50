// Loaded with --require into the soak's server (scripts/soak/otel-demo.mjs): an OpenTelemetry SDK
// sampling every request (spans batched to an exporter that counts and drops them, the duration
// histogram read by a metric reader) and trellis/otel registered on every new trellis instance
// through the `fastify.initialization` channel, as an APM agent hooks in, so examples/demo.mjs runs
// unchanged. Answers 'stats' (and 'stats-gc': after a full GC) with its memory and the spans exported so far.
'use strict'
const diagnosticsChannel = require('node:diagnostics_channel')
const { context, metrics, propagation, trace } = require('@opentelemetry/api')
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks')
const { W3CTraceContextPropagator } = require('@opentelemetry/core')
const { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor } = require('@opentelemetry/sdk-trace-base')
const { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } = require('@opentelemetry/sdk-metrics')
const otel = require('../../dist/entry/otel.cjs')

let spans = 0
let metricExports = 0
const spanExporter = { export (items, done) { spans += items.length; done({ code: 0 }) }, shutdown: async () => {}, forceFlush: async () => {} }
const metricExporter = {
  export (_batch, done) { metricExports++; done({ code: 0 }) },
  shutdown: async () => {},
  forceFlush: async () => {},
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE
}
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
propagation.setGlobalPropagator(new W3CTraceContextPropagator())
trace.setGlobalTracerProvider(new BasicTracerProvider({ sampler: new AlwaysOnSampler(), spanProcessors: [new BatchSpanProcessor(spanExporter)] }))
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 10000 })] }))

diagnosticsChannel.subscribe('fastify.initialization', ({ fastify }) => { fastify.register(otel) })

process.on('uncaughtException', (err) => { process.send({ type: 'crash', message: String(err && err.stack) }); process.exit(1) })
process.on('message', (msg) => {
  if (msg !== 'stats' && msg !== 'stats-gc') return
  // a forced GC (when asked, node --expose-gc) so heap figures compare live memory, not garbage
  if (msg === 'stats-gc' && global.gc) global.gc()
  const m = process.memoryUsage()
  process.send({ type: 'stats', rss: m.rss, heapUsed: m.heapUsed, external: m.external, spans, metricExports })
})
