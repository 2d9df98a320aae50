// The whole-server workload of `npm run bench` (bench/run.mjs) and `node bench/profile.mjs`: five routes,
// and the four servers that answer them.
//
//   hello   GET  /hello                  { hello: 'world' } with a response schema
//   404     GET  /not/here               each server's 404 answer (JSON body)
//   nested  GET  /l1/l2/l3/l4/l5/deep    a route 5 plugin levels deep; each level has an onRequest hook
//                                        and a request decorator; response schema
//   post    POST /users                  a validated body (6 properties) and a 25-field response schema
//   items   GET  /items                  100 items of 8 fields, response schema (array of objects)
//
// Servers: `bare` is node:http doing the same work by hand (a switch on the URL, the five hook
// functions called in a row, Ajv with Fastify's default options for the body, JSON.parse and
// JSON.stringify); `trellis` is the built dist; `fastify43` is Fastify 4.3.0 (devDependency alias)
// and `fastify` is Fastify 5. Every framework gets the same route definitions.
//
// `trellis-v5` (named with BENCH_SERVERS only) is the same build's Fastify 5 line, `trellis/v5`;
// `trellis-no-framing` (BENCH_SERVERS only) is trellis with `strictHostAndFraming: false`: against
// `trellis`, what the Host and framing rules cost a request.
// Tracing servers (named with BENCH_SERVERS only, see OTEL_SERVER_NAMES): `trellis-otel` is trellis
// with trellis/otel, `fastify429-otel` is Fastify 4.29.1 (devDependency alias `fastify429`) with
// @fastify/otel 0.21.2, `fastify429` the same Fastify without it. Both tracing servers get the same
// OpenTelemetry SDK (setupOtelSdk): every request sampled, the AsyncLocalStorage context manager, W3C
// propagation, spans batched to an exporter that drops them in this process (no network I/O), a meter
// provider whose reader never exports.
// `trellis-otel-sampled` and `fastify429-otel-sampled` are the same with the sampler production runs:
// ParentBased(TraceIdRatioBased(0.1)), one request in ten (by trace id) makes a span;
// `trellis-otel-sampled-spans` that sampler with no meter provider (tracing alone: nothing is measured
// on the other nine). `fastify5-otel`
// is fastify@5.12.8 (the devDependency `fastify`) with the same @fastify/otel and SDK, every request
// sampled (@fastify/otel 0.21.2 accepts Fastify `>=4.0.0 <6`).
// Where trellis/otel's cost goes, one part at a time (each adds one part of the SDK to the one before):
// `trellis-traced` trellis with a subscriber that does nothing on `tracing:trellis.request:start` (the
// traced request path and its channel messages); `trellis-otel-noop` trellis/otel without an SDK (the
// API's no-op tracer and meter: the plugin's own work); `trellis-otel-context` plus the SDK's context
// manager and propagator; `trellis-otel-spans` plus the tracer provider (spans, ids, the batch
// processor); `trellis-otel` plus the meter provider (the duration histogram).
// `trellis-sdk-floor` is what the SDK costs an instrumentation that does the least the conventions
// ask, without trellis/otel: trellis with no channel subscriber, the SDK of `trellis-otel-sampled`,
// and its request listener wrapped to start a SERVER span (the sampler's decision, the parent read
// from the headers), make it current around the request (the context manager), and at the response's
// 'close' end it if it records and record the duration histogram with the attributes trellis/otel
// gives it. trellis-otel-sampled minus this is trellis' own share of a sampled-one-in-ten request.
import { createServer } from 'node:http'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')

// ------------------------------------------------------------------ data and schemas
const HELLO = { hello: 'world' }
const helloSchema = { type: 'object', properties: { hello: { type: 'string' } } }

const nestedSchema = { type: 'object', properties: { sum: { type: 'integer' } } }
/** One onRequest hook per plugin level, each setting its level's request decorator. */
const NESTED_HOOKS = [
  function level1 (request, reply, done) { request.l1 = 1; done() },
  function level2 (request, reply, done) { request.l2 = 2; done() },
  function level3 (request, reply, done) { request.l3 = 3; done() },
  function level4 (request, reply, done) { request.l4 = 4; done() },
  function level5 (request, reply, done) { request.l5 = 5; done() }
]
const nestedAnswer = (r) => ({ sum: r.l1 + r.l2 + r.l3 + r.l4 + r.l5 })

const userBodySchema = {
  type: 'object',
  required: ['name', 'email', 'age'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 80 },
    email: { type: 'string', maxLength: 120 },
    age: { type: 'integer', minimum: 0, maximum: 150 },
    active: { type: 'boolean' },
    score: { type: 'number', minimum: 0 },
    tags: { type: 'array', maxItems: 10, items: { type: 'string', maxLength: 20 } }
  }
}
export const POST_BODY = JSON.stringify({ name: 'Ada Lovelace', email: 'ada@example.com', age: 36, active: true, score: 98.5, tags: ['math', 'engines'] })
export const POST_BAD_BODY = JSON.stringify({ name: 'Ada', age: 'old' })

const str = { type: 'string' }
const int = { type: 'integer' }
const num = { type: 'number' }
const bool = { type: 'boolean' }
const userResponseSchema = {
  type: 'object',
  properties: {
    id: int,
    name: str,
    email: str,
    age: int,
    active: bool,
    score: num,
    tags: { type: 'array', items: str },
    role: str,
    team: str,
    country: str,
    city: str,
    street: str,
    zip: str,
    phone: str,
    locale: str,
    timezone: str,
    createdAt: str,
    updatedAt: str,
    lastLogin: str,
    logins: int,
    plan: str,
    verified: bool,
    balance: num,
    referrer: str,
    note: str
  }
}
/** The 25-field answer of POST /users (6 fields from the body). */
function userAnswer (body) {
  return {
    id: 4242,
    name: body.name,
    email: body.email,
    age: body.age,
    active: body.active,
    score: body.score,
    tags: body.tags,
    role: 'admin',
    team: 'analytical engines',
    country: 'UK',
    city: 'London',
    street: "12 St James's Square",
    zip: 'SW1Y 4JH',
    phone: '+44 20 7946 0000',
    locale: 'en-GB',
    timezone: 'Europe/London',
    createdAt: '1843-07-10T00:00:00.000Z',
    updatedAt: '1852-11-27T00:00:00.000Z',
    lastLogin: '1852-11-26T12:00:00.000Z',
    logins: 1843,
    plan: 'pro',
    verified: true,
    balance: 1234.56,
    referrer: 'charles.babbage',
    note: 'first programmer'
  }
}

const ITEMS = Array.from({ length: 100 }, (_, i) => ({
  id: i + 1,
  name: `item number ${i + 1}`,
  price: Math.round((i * 7.31 + 1.99) * 100) / 100,
  inStock: i % 3 !== 0,
  category: ['tools', 'books', 'garden', 'kitchen'][i % 4],
  rating: (i % 5) + 0.5,
  sku: `SKU-${100000 + i * 37}`,
  updatedAt: new Date(Date.UTC(2024, 0, 1 + i)).toISOString()
}))
const itemsSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: { id: int, name: str, price: num, inStock: bool, category: str, rating: num, sku: str, updatedAt: str }
  }
}

/** The five routes: what the load generator sends and what a correct answer looks like. */
export const ROUTES = [
  { key: 'hello', label: 'GET hello JSON, response schema', method: 'GET', path: '/hello', status: 200 },
  { key: 'notFound', label: '404', method: 'GET', path: '/not/here', status: 404 },
  { key: 'nested', label: '5 plugin levels, onRequest hook + request decorator each', method: 'GET', path: '/l1/l2/l3/l4/l5/deep', status: 200 },
  { key: 'post', label: 'POST validated body (6 props), 25-field response schema', method: 'POST', path: '/users', body: POST_BODY, status: 200 },
  { key: 'items', label: 'GET 100 items × 8 fields, response schema', method: 'GET', path: '/items', status: 200 }
]

// ------------------------------------------------------------------ frameworks (same definitions for all)
function nestedLevel (n) {
  return async function level (instance) {
    instance.decorateRequest(`l${n}`, 0)
    instance.addHook('onRequest', NESTED_HOOKS[n - 1])
    if (n < 5) {
      instance.register(nestedLevel(n + 1), { prefix: `/l${n + 1}` })
    } else {
      instance.get('/deep', { schema: { response: { 200: nestedSchema } } }, async (request) => nestedAnswer(request))
    }
  }
}

function frameworkRoutes (app) {
  app.get('/hello', { schema: { response: { 200: helloSchema } } }, async () => HELLO)
  app.register(nestedLevel(1), { prefix: '/l1' })
  app.post('/users', { schema: { body: userBodySchema, response: { 200: userResponseSchema } } }, async (request) => userAnswer(request.body))
  app.get('/items', { schema: { response: { 200: itemsSchema } } }, async () => ITEMS)
  return app
}

// ------------------------------------------------------------------ the OpenTelemetry SDK of the tracing servers
/**
 * Registers a global SDK: every span sampled (or, with `ratio`, ParentBased(TraceIdRatioBased(ratio)))
 * and batched to an exporter that drops it; returns the tracer provider. `parts` leaves the later parts
 * out: 'context' (context manager and propagator only), 'spans' (no meter provider), 'all'.
 */
function setupOtelSdk (parts = 'all', ratio = undefined) {
  const { context, metrics, propagation, trace } = require('@opentelemetry/api')
  const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks')
  const { W3CTraceContextPropagator } = require('@opentelemetry/core')
  const { AlwaysOnSampler, BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler } = require('@opentelemetry/sdk-trace-base')
  const { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader } = require('@opentelemetry/sdk-metrics')
  const drop = { export (_items, done) { done({ code: 0 }) }, shutdown: async () => {}, forceFlush: async () => {} }
  const sampler = ratio === undefined ? new AlwaysOnSampler() : new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) })
  const provider = new BasicTracerProvider({ sampler, spanProcessors: [new BatchSpanProcessor(drop)] })
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable())
  propagation.setGlobalPropagator(new W3CTraceContextPropagator())
  if (parts === 'context') return provider
  trace.setGlobalTracerProvider(provider)
  if (parts === 'spans') return provider
  const reader = new PeriodicExportingMetricReader({ exporter: { ...drop, selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE }, exportIntervalMillis: 3_600_000 })
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }))
  return provider
}

/**
 * `trellis-sdk-floor`: wraps the server's request listener with the SDK calls any instrumentation of
 * an HTTP server makes per request (see the header), and nothing else. The bench's routes are static
 * paths, so the URL stands for the route.
 */
function sdkFloor (server) {
  setupOtelSdk('all', 0.1)
  const { context, metrics, propagation, trace, ROOT_CONTEXT, SpanKind } = require('@opentelemetry/api')
  const tracer = trace.getTracer('floor')
  const duration = metrics.getMeter('floor').createHistogram('http.server.request.duration', { unit: 's' })
  const rawGetter = {
    get (req, key) {
      const raw = req.rawHeaders
      for (let i = 0; i < raw.length; i += 2) if (raw[i].length === key.length && raw[i].toLowerCase() === key) return raw[i + 1]
      return undefined
    },
    keys: (req) => Object.keys(req.headers)
  }
  const metricSets = new Map()
  const [listener] = server.listeners('request')
  server.removeAllListeners('request')
  server.on('request', (req, res) => {
    const begun = performance.now()
    const method = req.method
    const route = req.url
    const span = tracer.startSpan(`${method} ${route}`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': method, 'url.scheme': 'http', 'http.route': route }
    }, propagation.extract(ROOT_CONTEXT, req, rawGetter))
    res.once('close', () => {
      const status = res.statusCode
      if (span.isRecording()) { span.setAttribute('http.response.status_code', status); span.end() }
      const key = `${method} ${route} ${status}`
      let attributes = metricSets.get(key)
      if (attributes === undefined) {
        attributes = { 'http.request.method': method, 'url.scheme': 'http', 'network.protocol.version': req.httpVersion, 'http.response.status_code': status, 'http.route': route }
        metricSets.set(key, attributes)
      }
      duration.record((performance.now() - begun) / 1000, attributes)
    })
    context.with(trace.setSpan(ROOT_CONTEXT, span), listener, server, req, res)
  })
}

// ------------------------------------------------------------------ bare node:http
function bareServer () {
  const Ajv = require('ajv')
  // Fastify's default Ajv options (what trellis and both Fastify lines use for bodies)
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, allErrors: false })
  const validateUser = ajv.compile(userBodySchema)
  const JSON_TYPE = 'application/json; charset=utf-8'
  const send = (res, status, payload) => {
    res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(payload) })
    res.end(payload)
  }
  const notFound = (req, res) => {
    send(res, 404, JSON.stringify({ message: `Route ${req.method}:${req.url} not found`, error: 'Not Found', statusCode: 404 }))
  }
  const noop = () => {}
  class NestedRequest { constructor () { this.l1 = 0; this.l2 = 0; this.l3 = 0; this.l4 = 0; this.l5 = 0 } }
  return createServer((req, res) => {
    const method = req.method
    switch (req.url) {
      case '/hello':
        if (method === 'GET') { send(res, 200, JSON.stringify(HELLO)); return }
        break
      case '/l1/l2/l3/l4/l5/deep':
        if (method === 'GET') {
          const r = new NestedRequest()
          for (let i = 0; i < NESTED_HOOKS.length; i++) NESTED_HOOKS[i](r, res, noop)
          send(res, 200, JSON.stringify(nestedAnswer(r)))
          return
        }
        break
      case '/users':
        if (method === 'POST') {
          const chunks = []
          req.on('data', (c) => chunks.push(c))
          req.on('end', () => {
            let body
            try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')) } catch { send(res, 400, '{"statusCode":400,"error":"Bad Request","message":"Body is not valid JSON"}'); return }
            if (!validateUser(body)) { send(res, 400, JSON.stringify({ statusCode: 400, error: 'Bad Request', message: 'body ' + validateUser.errors[0].message })); return }
            send(res, 200, JSON.stringify(userAnswer(body)))
          })
          return
        }
        break
      case '/items':
        if (method === 'GET') { send(res, 200, JSON.stringify(ITEMS)); return }
        break
    }
    notFound(req, res)
  })
}

// ------------------------------------------------------------------ one server, on 127.0.0.1 and a free port
export const SERVER_NAMES = ['bare', 'trellis', 'fastify43', 'fastify']
/** Servers with tracing on, run when BENCH_SERVERS names them (not in the default run). */
export const OTEL_SERVER_NAMES = ['trellis-otel', 'trellis-otel-sampled', 'trellis-otel-sampled-spans', 'fastify429-otel', 'fastify429-otel-sampled', 'fastify429', 'fastify5-otel']
/** The servers that split trellis/otel's cost into parts (header), for bench/icount.mjs and bench/profile.mjs. */
export const OTEL_PART_NAMES = ['trellis-traced', 'trellis-otel-noop', 'trellis-otel-context', 'trellis-otel-spans', 'trellis-sdk-floor']
/** Other builds and settings of trellis on the same routes, run when BENCH_SERVERS names them: its
 * Fastify 5 line (`trellis/v5`) and trellis without the Host and framing rules. */
export const TRELLIS_VARIANT_NAMES = ['trellis-v5', 'trellis-no-framing']
/**
 * BENCH_BASELINE=/path/to/other/checkout: that checkout's built trellis (its dist/) joins the run as
 * server `baseline`, to measure a change against the code before it in the same interleaved rounds.
 */
export const BASELINE = process.env.BENCH_BASELINE || undefined
if (BASELINE !== undefined) {
  SERVER_NAMES.push('baseline')
  // that checkout's trellis/otel, as `trellis-otel` runs it (named with BENCH_SERVERS only)
  OTEL_SERVER_NAMES.push('baseline-otel')
}

export function serverLabel (name) {
  switch (name) {
    case 'bare': return 'bare node:http'
    case 'trellis': return 'trellis'
    case 'trellis-v5': return 'trellis/v5'
    case 'trellis-no-framing': return 'trellis, strictHostAndFraming: false'
    case 'fastify43': return `fastify ${require('fastify43/package.json').version}`
    case 'fastify': return `fastify ${require('fastify/package.json').version}`
    case 'baseline': return 'trellis baseline'
    case 'baseline-otel': return 'baseline + trellis/otel'
    case 'trellis-otel': return 'trellis + trellis/otel'
    case 'trellis-otel-sampled': return 'trellis + trellis/otel, 1 in 10 sampled'
    case 'trellis-otel-sampled-spans': return 'trellis + trellis/otel, 1 in 10 sampled, no meter provider'
    case 'trellis-traced': return 'trellis, a no-op subscriber'
    case 'trellis-otel-noop': return 'trellis/otel, no SDK'
    case 'trellis-otel-context': return 'trellis/otel, context manager'
    case 'trellis-otel-spans': return 'trellis/otel, spans, no metrics'
    case 'trellis-sdk-floor': return 'trellis + the SDK alone, 1 in 10 sampled'
    case 'fastify429': return `fastify ${require('fastify429/package.json').version}`
    case 'fastify429-otel': return `fastify ${require('fastify429/package.json').version} + @fastify/otel ${require('@fastify/otel/package.json').version}`
    case 'fastify429-otel-sampled': return `fastify ${require('fastify429/package.json').version} + @fastify/otel, 1 in 10 sampled`
    case 'fastify5-otel': return `fastify ${require('fastify/package.json').version} + @fastify/otel ${require('@fastify/otel/package.json').version}`
    default: throw new Error(`unknown server ${name}`)
  }
}

/** Starts one server; resolves to its port. */
export async function startServer (name) {
  if (name === 'bare') {
    const server = bareServer()
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
    return server.address().port
  }
  if (name === 'trellis-traced') {
    require('node:diagnostics_channel').subscribe('tracing:trellis.request:start', () => {})
    const app = frameworkRoutes(require(join(root, 'dist', 'entry', 'index.cjs'))({ logger: false }))
    await app.listen({ port: 0, host: '127.0.0.1' })
    return app.server.address().port
  }
  if (name === 'trellis-sdk-floor') {
    const app = frameworkRoutes(require(join(root, 'dist', 'entry', 'index.cjs'))({ logger: false }))
    await app.ready()
    sdkFloor(app.server)
    await app.listen({ port: 0, host: '127.0.0.1' })
    return app.server.address().port
  }
  if (name.startsWith('trellis-otel') || name === 'baseline-otel') {
    const parts = name.slice('trellis-otel-'.length)
    if (parts === 'sampled') setupOtelSdk('all', 0.1)
    else if (parts === 'sampled-spans') setupOtelSdk('spans', 0.1)
    else if (parts !== 'noop') setupOtelSdk(parts === '' ? 'all' : parts)
    const from = name === 'baseline-otel' ? BASELINE : root
    const app = require(join(from, 'dist', 'entry', 'index.cjs'))({ logger: false })
    await app.register(require(join(from, 'dist', 'entry', 'otel.cjs')))
    frameworkRoutes(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    return app.server.address().port
  }
  if (name === 'fastify429-otel' || name === 'fastify429-otel-sampled' || name === 'fastify5-otel') {
    const provider = setupOtelSdk('all', name.endsWith('-sampled') ? 0.1 : undefined)
    const { FastifyOtelInstrumentation } = require('@fastify/otel')
    const instrumentation = new FastifyOtelInstrumentation()
    instrumentation.setTracerProvider(provider)
    const app = require(name === 'fastify5-otel' ? 'fastify' : 'fastify429')({ logger: false })
    await app.register(instrumentation.plugin())
    frameworkRoutes(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    return app.server.address().port
  }
  const builds = { trellis: 'index.cjs', 'trellis-v5': 'v5.cjs', 'trellis-no-framing': 'index.cjs' }
  const factory = builds[name] !== undefined
    ? require(join(root, 'dist', 'entry', builds[name]))
    : name === 'baseline' ? require(join(BASELINE, 'dist', 'entry', 'index.cjs')) : require(name)
  const app = frameworkRoutes(factory(name === 'trellis-no-framing' ? { logger: false, strictHostAndFraming: false } : { logger: false }))
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server.address().port
}
