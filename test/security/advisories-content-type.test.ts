/**
 * Fastify's published advisories about the `Content-Type` header, each exploit sent to trellis over
 * a real socket (raw bytes: the header goes out exactly as written) and the safe answer asserted.
 * The table in docs/security.md links each advisory to its describe block here.
 */
import { before, after, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import http2 from 'node:http2'
import trellis, { type TrellisInstance } from '../../src/index'
import { listen, rawRequest, parseRaw } from '../helpers'

interface Answer { statusCode: number; headers: Record<string, string>; body: string }

let app: TrellisInstance
let port = 0
/** what the handlers and parsers saw, by name */
const seen: string[] = []

const fooSchema = { type: 'object', properties: { foo: { type: 'string' } }, required: ['foo'], additionalProperties: false }

before(async () => {
  app = trellis()
  app.get('/health', async () => ({ ok: true }))
  app.post('/echo', async (req) => { seen.push('echo'); return { type: typeof req.body, body: req.body } })
  // a body schema per content type (Fastify 4.29's schema.body.content)
  app.post('/content', {
    schema: { body: { content: { 'application/json': { schema: fooSchema }, 'text/plain': { schema: { type: 'string', maxLength: 5 } } } } }
  }, async (req) => { seen.push('content'); return { body: req.body } })
  // the same, with the schema keyed by a mixed-case media type
  app.post('/content-mixed-key', {
    schema: { body: { content: { 'Application/JSON': { schema: fooSchema } } } }
  }, async (req) => { seen.push('content-mixed-key'); return { body: req.body } })
  // a JSON-only scope: the CORS-safelisted types have no parser there
  app.register(async (scope) => {
    scope.removeContentTypeParser('text/plain')
    scope.post('/json-only', async (req) => { seen.push('json-only'); return { body: req.body } })
  })
  // an unanchored RegExp parser (Fastify 5 warns about these, FSTSEC001): CVE-2022-41919 matched it
  // against the whole header, parameters included
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser(/application\/json/, { parseAs: 'string' }, (_req, body, done) => {
      seen.push('unanchored-parser')
      done(null, JSON.parse(String(body)))
    })
    scope.post('/unanchored', async (req) => req.body)
  })
  // a RegExp parser, the kind CVE-2026-3419 reached with junk after the subtype
  app.register(async (scope) => {
    scope.addContentTypeParser(/^application\/.+\+json$/, { parseAs: 'string' }, (_req, body, done) => {
      seen.push('regexp-parser')
      done(null, { parsedBy: 'regexp', length: String(body).length })
    })
    scope.post('/regexp', async (req) => req.body)
  })
  port = (await listen(app)).port
})

after(async () => { await app.close() })

async function post (path: string, contentType: string, body: string): Promise<Answer> {
  const raw = `POST ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: ${contentType}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  return parseRaw(await rawRequest(port, Buffer.from(raw, 'latin1')))
}

const code = (a: Answer): string => (JSON.parse(a.body) as { code: string }).code

async function stillServes (): Promise<void> {
  const a = parseRaw(await rawRequest(port, 'GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'))
  assert.equal(a.statusCode, 200)
  assert.deepEqual(JSON.parse(a.body), { ok: true })
}

describe('CVE-2022-39288 (GHSA-455w-c45v-86rg): a Content-Type naming an Object.prototype property', () => {
  for (const contentType of ['constructor', '__proto__', 'hasOwnProperty', 'toString', 'valueOf', '__defineGetter__', 'constructor; charset=utf-8']) {
    it(`${contentType}: 415 FST_ERR_CTP_INVALID_MEDIA_TYPE, no parser runs, the server keeps serving`, async () => {
      seen.length = 0
      const a = await post('/echo', contentType, '{"a":1}')
      assert.equal(a.statusCode, 415)
      assert.equal(code(a), 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      assert.deepEqual(seen, [])
      await stillServes()
    })
  }
})

describe('CVE-2022-41919 (GHSA-3fjj-p79j-c9hh): JSON named inside a CORS-safelisted Content-Type (CSRF)', () => {
  // a browser sends these cross-origin without a preflight: they must never reach the JSON parser
  for (const contentType of [
    'text/plain; charset=utf-8; application/json',
    'text/plain; x="application/json"',
    'application/x-www-form-urlencoded; application/json',
    'multipart/form-data; boundary=application/json',
    'text/plain;application/json'
  ]) {
    it(`${contentType}: not parsed as JSON on a JSON-only route (415), handler not called`, async () => {
      seen.length = 0
      const a = await post('/json-only', contentType, '{"transfer":1000}')
      assert.equal(a.statusCode, 415)
      assert.equal(code(a), 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      assert.deepEqual(seen, [])
    })
  }

  it('an unanchored RegExp parser (/application\\/json/) is tested against the media type, not the parameters', async () => {
    seen.length = 0
    for (const contentType of ['text/plain; x="application/json"', 'text/plain; charset=utf-8; application/json']) {
      const a = await post('/unanchored', contentType, '{"transfer":1000}')
      assert.equal(a.statusCode, 415, contentType)
    }
    assert.deepEqual(seen, [])
    const control = await post('/unanchored', 'application/json', '{"transfer":1000}')
    assert.deepEqual([control.statusCode, JSON.parse(control.body)], [200, { transfer: 1000 }])
    assert.deepEqual(seen, ['unanchored-parser'])
  })

  it('text/plain carrying JSON is a string where a text parser exists, never an object', async () => {
    const a = await post('/echo', 'text/plain; x="application/json"', '{"transfer":1000}')
    assert.equal(a.statusCode, 200)
    assert.deepEqual(JSON.parse(a.body), { type: 'string', body: '{"transfer":1000}' })
  })
})

describe('CVE-2025-32442 (GHSA-mg2h-6x62-wpwc): schema.body.content skipped by case or whitespace', () => {
  for (const contentType of ['application/json', 'Application/JSON', 'APPLICATION/JSON; charset=utf-8', 'application/json ;', 'ApPlIcAtIoN/JsOn ;', 'application/json ; charset=utf-8']) {
    it(`${JSON.stringify(contentType)}: an invalid body is 400 FST_ERR_VALIDATION, a valid one passes`, async () => {
      seen.length = 0
      const bad = await post('/content', contentType, '{"invalid":"x"}')
      assert.equal(bad.statusCode, 400)
      assert.equal(code(bad), 'FST_ERR_VALIDATION')
      assert.deepEqual(seen, [])
      const good = await post('/content', contentType, '{"foo":"x"}')
      assert.equal(good.statusCode, 200)
      assert.deepEqual(JSON.parse(good.body), { body: { foo: 'x' } })
    })
  }

  it('the other media type of the same route keeps its own schema (text/plain, maxLength 5)', async () => {
    assert.equal((await post('/content', 'TEXT/PLAIN ; charset=utf-8', 'too long')).statusCode, 400)
    assert.equal((await post('/content', 'text/plain', 'short')).statusCode, 200)
  })

  it('a schema keyed by a mixed-case media type (Application/JSON) still validates application/json', async () => {
    seen.length = 0
    const bad = await post('/content-mixed-key', 'application/json', '{"invalid":"x"}')
    assert.equal(bad.statusCode, 400)
    assert.equal(code(bad), 'FST_ERR_VALIDATION')
    assert.deepEqual(seen, [])
    assert.equal((await post('/content-mixed-key', 'application/json', '{"foo":"x"}')).statusCode, 200)
  })
})

describe('CVE-2026-25223 (GHSA-jx2c-rxcm-jvmq): a tab in the media type', () => {
  for (const contentType of ['ApPlIcAtIoN/JsOn\ta', 'application/json\ta; charset=utf-8', 'application/json\tx']) {
    it(`${JSON.stringify(contentType)}: 415, the body is neither parsed nor handled`, async () => {
      seen.length = 0
      const a = await post('/content', contentType, '{"invalid":"x"}')
      assert.equal(a.statusCode, 415)
      assert.equal(code(a), 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      assert.deepEqual(seen, [])
    })
  }

  it('a tab where RFC 9110 allows whitespace (before ";", around the value) is whitespace: validated', async () => {
    for (const contentType of ['application/json\t; charset=utf-8', '\tapplication/json\t', 'application/json;\tcharset=utf-8']) {
      const a = await post('/content', contentType, '{"invalid":"x"}')
      assert.equal(a.statusCode, 400, JSON.stringify(contentType))
      assert.equal(code(a), 'FST_ERR_VALIDATION')
    }
  })
})

describe('CVE-2026-33806: a leading space in front of the media type', () => {
  it('HTTP/1.1: " application/json" is validated (400 invalid, 200 valid)', async () => {
    const bad = await post('/content', ' application/json', '{"invalid":"x"}')
    assert.equal(bad.statusCode, 400)
    assert.equal(code(bad), 'FST_ERR_VALIDATION')
    assert.equal((await post('/content', '  application/json', '{"foo":"x"}')).statusCode, 200)
  })

  it('inject (the header reaches trellis with its leading space untouched): validated', async () => {
    // node's HTTP/1 parser strips the space before trellis sees it; inject and HTTP/2 do not
    for (const contentType of [' application/json', '\t application/json', ' Application/JSON ; charset=utf-8']) {
      const bad = await app.inject({ method: 'POST', url: '/content', headers: { 'content-type': contentType }, payload: '{"invalid":"x"}' })
      assert.equal(bad.statusCode, 400, JSON.stringify(contentType))
      assert.equal(bad.json().code, 'FST_ERR_VALIDATION')
      const good = await app.inject({ method: 'POST', url: '/content', headers: { 'content-type': contentType }, payload: '{"foo":"x"}' })
      assert.equal(good.statusCode, 200, JSON.stringify(contentType))
    }
  })

  it('HTTP/2 over a real socket: " application/json" never gives the handler an unvalidated body', async () => {
    // nghttp2 drops a field value with leading whitespace: the request arrives without a
    // Content-Type, so its body is not parsed; either way the invalid object must not get through
    const h2 = trellis({ http2: true })
    h2.post('/content', { schema: { body: { content: { 'application/json': { schema: fooSchema } } } } }, async (req) => ({ body: req.body ?? null }))
    const { port: h2port } = await listen(h2)
    const session = http2.connect(`http://127.0.0.1:${h2port}`)
    try {
      const send = (contentType: string, body: string): Promise<{ status: number, body: any }> => new Promise((resolve, reject) => {
        const stream = session.request({ ':method': 'POST', ':path': '/content', 'content-type': contentType })
        let status = 0
        let text = ''
        stream.on('response', (headers) => { status = Number(headers[':status']) })
        stream.setEncoding('utf8')
        stream.on('data', (chunk: string) => { text += chunk })
        stream.on('end', () => resolve({ status, body: JSON.parse(text) }))
        stream.on('error', reject)
        stream.end(body)
      })
      const bad = await send(' application/json', '{"invalid":"x"}')
      if (bad.status === 200) assert.deepEqual(bad.body, { body: null })
      else assert.deepEqual([bad.status, bad.body.code], [400, 'FST_ERR_VALIDATION'])
      // control: the same body with the header as written is validated over this session
      const control = await send('application/json', '{"invalid":"x"}')
      assert.deepEqual([control.status, control.body.code], [400, 'FST_ERR_VALIDATION'])
    } finally {
      session.close()
      await h2.close()
    }
  })
})

describe('CVE-2026-3419 (GHSA-573f-x89g-hqp9): junk after the subtype reaching a RegExp parser', () => {
  it('control: application/vnd.api+json reaches the RegExp parser', async () => {
    seen.length = 0
    const a = await post('/regexp', 'application/vnd.api+json; charset=utf-8', '{}')
    assert.equal(a.statusCode, 200)
    assert.deepEqual(JSON.parse(a.body), { parsedBy: 'regexp', length: 2 })
    assert.deepEqual(seen, ['regexp-parser'])
  })

  for (const contentType of ['application/vnd.api+json garbage', 'application/vnd.api+json;garbage', 'application/vnd.api+json x; charset=utf-8', 'application/vnd.api+json,text/html', 'application/json garbage']) {
    it(`${JSON.stringify(contentType)}: 415, the RegExp parser never runs`, async () => {
      seen.length = 0
      const a = await post(contentType.startsWith('application/json') ? '/echo' : '/regexp', contentType, '{}')
      assert.equal(a.statusCode, 415)
      assert.equal(code(a), 'FST_ERR_CTP_INVALID_MEDIA_TYPE')
      assert.deepEqual(seen, [])
    })
  }
})

describe('content-type parameters built for regex backtracking (Fastify 5.8.2 anchored its parameter regex)', () => {
  // headers up to node's 16 KiB limit; a quadratic scan of these took seconds in regex-based parsers
  const cases: Array<[string, string]> = [
    ['many empty parameters', 'application/json' + ';'.repeat(15000)],
    ['many parameters', 'application/json' + '; a=b'.repeat(2500)],
    ['an unterminated quoted value', 'application/json; a="' + '\\"'.repeat(7000)],
    ['whitespace runs with no parameter', 'application/json' + ' ; \t'.repeat(3500) + 'x']
  ]
  for (const [name, contentType] of cases) {
    it(`${name} (${contentType.length} bytes): answered within a second, server keeps serving`, async () => {
      const start = process.hrtime.bigint()
      const a = await post('/echo', contentType, '{"a":1}')
      const ms = Number(process.hrtime.bigint() - start) / 1e6
      assert.ok([200, 415].includes(a.statusCode), `status ${a.statusCode}`)
      assert.ok(ms < 1000, `took ${ms.toFixed(0)} ms`)
      await stillServes()
    })
  }
})
