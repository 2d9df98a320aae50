/**
 * Micro-benchmark of the request validation step: trellis' compiled validators + validateRequest
 * vs Fastify 4.3's own step (its @fastify/ajv-compiler and lib/validation.js `validate`), with the
 * same schemas and inputs. Bounded: about 1 s per measurement, well under 60 s in total.
 *
 *   npm run bench:validation      (node --import tsx bench/validation.bench.ts)
 */
import { dirname, join } from 'node:path'
import {
  compileRouteValidators, createDefaultValidatorCompiler, defaultSchemaErrorFormatter, validateRequest,
  type RequestParts, type RouteSchema
} from '../src/schema/validation/index'

const fastifyDir = dirname(require.resolve('fastify43/package.json'))
const AjvCompiler = require(require.resolve('@fastify/ajv-compiler', { paths: [fastifyDir] }))
const f43validation = require(join(fastifyDir, 'lib/validation.js'))
const f43schemas = require(join(fastifyDir, 'lib/schemas.js'))

const shared = {
  user: { $id: 'user', type: 'object', properties: { name: { type: 'string', maxLength: 50 }, age: { type: 'integer', minimum: 0 } }, required: ['name'] }
}

interface Scenario { name: string, schema: RouteSchema, request: () => RequestParts, expectError: boolean }

const scenarios: Scenario[] = [
  {
    name: 'all four parts valid (coercion)',
    schema: {
      params: { id: { type: 'integer' } },
      body: { type: 'object', properties: { user: { $ref: 'user#' }, tags: { type: 'array', items: { type: 'string' }, maxItems: 10 } }, required: ['user'] },
      querystring: { page: { type: 'integer', default: 1 }, ids: { type: 'array', items: { type: 'integer' } } },
      headers: { type: 'object', properties: { 'X-Request-Count': { type: 'integer' } }, required: ['X-Request-Count'] }
    },
    request: () => ({
      params: { id: '42' },
      body: { user: { name: 'ann', age: 30 }, tags: ['a', 'b'] },
      query: { ids: '7' },
      headers: { host: 'localhost', 'user-agent': 'bench', accept: '*/*', 'x-request-count': '3' }
    }),
    expectError: false
  },
  {
    name: 'invalid body (missing required)',
    schema: { body: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    request: () => ({ params: {}, body: { other: 1 }, query: {}, headers: { host: 'localhost' } }),
    expectError: true
  },
  {
    name: 'querystring only (shorthand, coercion)',
    schema: { querystring: { q: { type: 'string' }, limit: { type: 'integer', maximum: 100 } } },
    request: () => ({ params: {}, body: undefined, query: { q: 'x', limit: '20' }, headers: {} }),
    expectError: false
  }
]

function measure (fn: () => void, ms = 1000): number {
  for (let i = 0; i < 20_000; i++) fn() // warm-up
  let ops = 0
  const end = process.hrtime.bigint() + BigInt(ms) * 1_000_000n
  const start = process.hrtime.bigint()
  while (true) {
    for (let i = 0; i < 1000; i++) fn()
    ops += 1000
    const now = process.hrtime.bigint()
    if (now >= end) return ops / (Number(now - start) / 1e9)
  }
}

function trellisStep (s: Scenario): () => void {
  const compiler = createDefaultValidatorCompiler(shared)
  const validators = compileRouteValidators({ schema: s.schema, method: 'POST', url: '/bench/:id', compiler })
  return () => {
    const err = validateRequest(validators, s.request(), defaultSchemaErrorFormatter)
    if ((err !== null) !== s.expectError) throw new Error(`trellis: unexpected result for ${s.name}: ${err?.message}`)
  }
}

function fastify43Step (s: Scenario): () => void {
  const compile = AjvCompiler()(shared, { customOptions: {}, plugins: [] })
  // Fastify 4.3 normalizes the route schema (shorthand), then compiles and validates per context
  const schema = f43schemas.normalizeSchema(structuredClone(s.schema), { jsonShorthand: true })
  const context: Record<string | symbol, unknown> = {
    schema,
    config: { method: 'POST', url: '/bench/:id' },
    schemaErrorFormatter: defaultSchemaErrorFormatter
  }
  f43validation.compileSchemasForValidation(context, compile)
  return () => {
    const err = f43validation.validate(context, s.request())
    if ((err !== null) !== s.expectError) throw new Error(`fastify43: unexpected result for ${s.name}: ${err?.message}`)
  }
}

const rows: string[] = []
rows.push('| scenario | trellis ops/s | fastify 4.3 ops/s | ratio |')
rows.push('|---|---:|---:|---:|')
const started = Date.now()
for (const s of scenarios) {
  const t = trellisStep(s)
  const f = fastify43Step(s)
  // interleave two rounds each, keep the best, to damp noise on shared machines
  const tr = Math.max(measure(t), measure(t))
  const fr = Math.max(measure(f), measure(f))
  rows.push(`| ${s.name} | ${Math.round(tr).toLocaleString('en-US')} | ${Math.round(fr).toLocaleString('en-US')} | ${(tr / fr).toFixed(2)} |`)
}
console.log(rows.join('\n'))
console.log(`\n(node ${process.version}, ${((Date.now() - started) / 1000).toFixed(1)} s)`)
