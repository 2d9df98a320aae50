/**
 * Property-based fuzzing with fast-check, bounded so it stays a few seconds of `npm test`:
 * random requests against the security fixture never give a 5xx, a hang or an error body that is not
 * JSON; random payloads through response schemas always give valid JSON with only declared
 * properties.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import fc from 'fast-check'
import trellis from '../../src/index'
import { listen, rawRequest, parseRaw, request } from '../helpers'
import { buildFixture, API_KEY } from './fixture'

const SEED = Number(process.env.FUZZ_SEED ?? 20261123)

const segment = fc.oneof(
  fc.constantFrom('health', 'echo', 'typed', 'items', 'search', 'echo-query', 'params', 'ip', 'text', 'x', 'data', '__proto__', 'constructor', '..', '.', '', '%2F', '%00', '%ZZ', '%C0%AF'),
  fc.string({ maxLength: 12 }).map((s) => encodeURIComponent(s)),
  fc.integer().map(String)
)
const path = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => '/' + parts.join('/'))
const query = fc.option(fc.array(fc.tuple(fc.constantFrom('q', '__proto__', 'constructor[prototype]', 'a', 'a[]'), fc.string({ maxLength: 10 })), { maxLength: 4 })
  .map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')), { nil: undefined })
const method = fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS')
const contentType = fc.option(fc.oneof(
  fc.constantFrom('application/json', 'text/plain', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/jsonx', 'constructor', '__proto__', 'text/plain; x="application/json"', 'application/json, text/plain', 'multipart/form-data', ''),
  fc.stringMatching(/^[a-z]{1,8}\/[a-z+.-]{1,10}(; ?[a-z]{1,5}=[a-z0-9]{1,5})?$/)
), { nil: undefined })
const body = fc.option(fc.oneof(
  fc.json({ maxDepth: 4 }),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"name":"a"}', '[[[[[[]]]]]]', '{')
), { nil: undefined })
const authorization = fc.option(fc.oneof(fc.constant(`Bearer ${API_KEY}`), fc.string({ maxLength: 20 }).map((s) => `Bearer ${s}`), fc.string({ maxLength: 20 })), { nil: undefined })
const requestArb = fc.record({ method, path, query, contentType, body, authorization })

type Req = typeof requestArb extends fc.Arbitrary<infer T> ? T : never

function checkAnswer (statusCode: number, contentTypeHeader: string | undefined, payload: string, r: Req): void {
  assert.ok(statusCode < 500, `${statusCode} for ${JSON.stringify(r)}: ${payload.slice(0, 200)}`)
  if (statusCode >= 400 && r.method !== 'HEAD') {
    assert.match(contentTypeHeader ?? '', /^application\/json/)
    JSON.parse(payload)
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined)
}

test('fuzz: random requests through inject never give a 5xx, a non-JSON error or a polluted prototype (400 runs)', async () => {
  const app = buildFixture()
  await app.ready()
  try {
    await fc.assert(fc.asyncProperty(requestArb, async (r) => {
      const headers: Record<string, string> = {}
      if (r.contentType !== undefined) headers['content-type'] = r.contentType
      if (r.authorization !== undefined) headers.authorization = r.authorization
      const sendsBody = r.body !== undefined && r.method !== 'GET' && r.method !== 'HEAD'
      const res = await app.inject({ method: r.method as 'GET', url: r.path + (r.query !== undefined ? '?' + r.query : ''), headers, payload: sendsBody ? r.body : undefined })
      checkAnswer(res.statusCode, res.headers['content-type'] as string | undefined, res.body, r)
    }), { numRuns: 400, seed: SEED })
  } finally { await app.close() }
})

test('fuzz: random requests over a real socket (node\'s parser included), then the server still serves (80 runs)', async () => {
  const app = buildFixture()
  const { port } = await listen(app)
  try {
    await fc.assert(fc.asyncProperty(requestArb, fc.string({ maxLength: 30 }), async (r, junkHeader) => {
      const target = r.path + (r.query !== undefined ? '?' + r.query : '')
      let head = `${r.method} ${target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Junk: ${junkHeader}\r\n`
      if (r.contentType !== undefined) head += `Content-Type: ${r.contentType}\r\n`
      if (r.authorization !== undefined) head += `Authorization: ${r.authorization}\r\n`
      const payload = r.body !== undefined ? Buffer.from(r.body) : undefined
      if (payload !== undefined) head += `Content-Length: ${payload.length}\r\n`
      const raw = payload !== undefined ? Buffer.concat([Buffer.from(head + '\r\n', 'utf8'), payload]) : head + '\r\n'
      const text = await rawRequest(port, raw, 3000)
      assert.notEqual(text, '', `an answer for ${JSON.stringify(r)}`)
      const res = parseRaw(text)
      checkAnswer(res.statusCode, res.headers['content-type'], Buffer.from(res.body, 'latin1').toString('utf8'), r)
    }), { numRuns: 80, seed: SEED })
    assert.equal((await request(port, { path: '/health' })).statusCode, 200)
  } finally { await app.close() }
})

// ---- response schemas

const schemas: Array<Record<string, unknown>> = [
  { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } },
  { type: 'object', properties: { user: { type: 'object', properties: { name: { type: 'string' }, age: { type: 'number' } }, additionalProperties: false } }, additionalProperties: false },
  { type: 'array', items: { type: 'object', properties: { ok: { type: 'boolean' }, n: { type: ['integer', 'null'] } } } },
  { type: 'object', properties: { value: { anyOf: [{ type: 'string' }, { type: 'object', properties: { x: { type: 'number' } } }] } } },
  { type: 'object', properties: { nested: { type: 'object', properties: { deep: { type: 'object', properties: { leaf: { type: 'string' } } } } } } },
  { type: 'object', properties: { map: { type: 'object', additionalProperties: { type: 'integer' } } } }
]

/** Every property of `value` is declared by `schema` (where the schema is closed). */
function onlyDeclared (value: unknown, schema: Record<string, any>, where = '$'): void {
  if (value === null || typeof value !== 'object') return
  if (Array.isArray(value)) {
    if (schema.items !== undefined) value.forEach((v, i) => onlyDeclared(v, schema.items, `${where}[${i}]`))
    return
  }
  if (schema.anyOf !== undefined) return
  const props = (schema.properties ?? {}) as Record<string, any>
  for (const [key, v] of Object.entries(value)) {
    if (key in props) { onlyDeclared(v, props[key], `${where}.${key}`); continue }
    if (schema.additionalProperties !== undefined && typeof schema.additionalProperties === 'object') { onlyDeclared(v, schema.additionalProperties, `${where}.${key}`); continue }
    assert.fail(`undeclared property ${where}.${key} in ${JSON.stringify(value)}`)
  }
}

test('fuzz: random payloads through response schemas give valid JSON with only declared properties (6 schemas x 150 runs)', async () => {
  const app = trellis()
  let next: unknown
  schemas.forEach((schema, i) => app.get(`/s${i}`, { schema: { response: { 200: schema } } }, async () => next))
  await app.ready()
  const value = fc.oneof(
    fc.anything({ maxDepth: 3, withNullPrototype: true, withBoxedValues: true }),
    fc.record({ id: fc.anything(), name: fc.anything(), tags: fc.anything(), extra: fc.anything() }, { requiredKeys: [] }),
    fc.record({ user: fc.record({ name: fc.anything(), age: fc.anything(), admin: fc.anything() }, { requiredKeys: [] }), secret: fc.string() }, { requiredKeys: [] }),
    fc.array(fc.record({ ok: fc.anything(), n: fc.anything(), hidden: fc.anything() }, { requiredKeys: [] }), { maxLength: 4 })
  )
    // a handler resolving undefined sends no body; a string payload is sent as is (as in Fastify):
    // neither goes through the serializer
    .filter((v) => v !== undefined && typeof v !== 'string')
  try {
    for (let i = 0; i < schemas.length; i++) {
      await fc.assert(fc.asyncProperty(value, async (payload) => {
        next = payload
        const res = await app.inject({ url: `/s${i}` })
        if (res.statusCode === 200) {
          const parsed: unknown = JSON.parse(res.body)
          onlyDeclared(parsed, schemas[i])
        } else {
          // a payload the schema cannot represent is a clear 500 JSON error, never broken output
          assert.equal(res.statusCode, 500)
          JSON.parse(res.body)
        }
      }), { numRuns: 150, seed: SEED + i })
    }
  } finally { await app.close() }
})
