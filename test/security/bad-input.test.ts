/**
 * Bad input, table-driven, over a real socket (node's HTTP parser included). After every case: the
 * server still serves, Object.prototype is clean, no response carries a stack trace or a path of
 * this machine, and every error body is valid JSON whose Content-Length is its byte length.
 */
import { before, after, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import type { TrellisInstance } from '../../src/index'
import { listen, rawRequest, parseRaw, request, noStack } from '../helpers'
import { buildFixture, API_KEY } from './fixture'

interface Answer { statusCode: number; headers: Record<string, string>; body: string; text: string }
interface Case {
  name: string
  /** the whole request as sent; `Connection: close` requests are built by `req()` */
  raw: string | Buffer
  /** expected status: one, several, or a check of the answer; `null`: the server may just close */
  expect: number | number[] | null | ((answer: Answer) => void)
  timeoutMs?: number
}

function req (method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer): string | Buffer {
  let head = `${method} ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n`
  const hasLength = Object.keys(headers).some((h) => h.toLowerCase() === 'content-length' || h.toLowerCase() === 'transfer-encoding')
  for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`
  if (body !== undefined && !hasLength) head += `Content-Length: ${Buffer.byteLength(body)}\r\n`
  head += '\r\n'
  if (body === undefined) return head
  return Buffer.concat([Buffer.from(head, 'latin1'), Buffer.isBuffer(body) ? body : Buffer.from(body)])
}
const json = (path: string, body: string, contentType = 'application/json'): string | Buffer => req('POST', path, { 'Content-Type': contentType }, body)
const auth = (path: string, authorization?: string): string | Buffer => req('GET', path, authorization === undefined ? {} : { Authorization: authorization })
const bodyOf = (a: Answer): any => JSON.parse(a.body)
const deep = (n: number, open: string, close: string, inner = '1'): string => open.repeat(n) + inner + close.repeat(n)

const ONE_MIB = 1024 * 1024
const cases: Case[] = [
  // ---- body size and framing
  { name: 'declared Content-Length over bodyLimit', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Content-Length': String(ONE_MIB + 10) }, '{}'), expect: 413 },
  { name: 'chunked body over bodyLimit', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, `${(ONE_MIB + 100).toString(16)}\r\n[${'1,'.repeat((ONE_MIB + 96) / 2)}1]\r\n0\r\n\r\n`), expect: 413 },
  { name: 'Content-Length shorter than the body (rest is garbage)', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Content-Length': '5' }, '{"a":1,"b":2}'), expect: 400 },
  { name: 'Content-Length longer than the body (client waits): 408 at requestTimeout', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Content-Length': '100' }, '{"a":1}'), expect: 408, timeoutMs: 4000 },
  { name: 'negative Content-Length', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Content-Length': '-1' }, '{}'), expect: 400 },
  { name: 'two different Content-Length headers', raw: 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}', expect: 400 },
  { name: 'Content-Length and Transfer-Encoding together (smuggling)', raw: 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n', expect: 400 },
  { name: 'Transfer-Encoding other than chunked', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'gzip' }, '{}'), expect: [400, 501] },
  { name: 'chunk size that is not hex', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, 'xyz\r\n{}\r\n0\r\n\r\n'), expect: 400 },
  { name: 'chunk size overflow', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' }, 'fffffffffffffffff\r\n{}\r\n0\r\n\r\n'), expect: 400 },
  // ---- JSON: malformed, empty, deep, large
  { name: 'truncated JSON', raw: json('/echo', '{'), expect: 400 },
  { name: 'JSON with a missing value', raw: json('/echo', '{"a":}'), expect: 400 },
  { name: 'JSON with a trailing comma', raw: json('/echo', '[1,]'), expect: 400 },
  { name: 'empty JSON body', raw: req('POST', '/echo', { 'Content-Type': 'application/json', 'Content-Length': '0' }), expect: (a) => { assert.equal(a.statusCode, 400); assert.equal(bodyOf(a).code, 'FST_ERR_CTP_EMPTY_JSON_BODY') } },
  { name: 'JSON that is only whitespace', raw: json('/echo', '   '), expect: 400 },
  { name: 'JSON with a NUL byte', raw: json('/echo', '{"a":1}\u0000'), expect: 400 },
  { name: 'JSON with single quotes', raw: json('/echo', "{'a':1}"), expect: 400 },
  { name: 'JSON NaN literal', raw: json('/echo', '[NaN]'), expect: 400 },
  { name: '100,000 nested arrays: 400 before the handler', raw: json('/echo', deep(100000, '[', ']')), expect: (a) => { assert.equal(a.statusCode, 400); assert.equal(bodyOf(a).code, 'FST_ERR_CTP_JSON_TOO_DEEP') } },
  { name: '100,000 nested objects: 400 before the handler', raw: json('/echo', deep(100000, '{"a":', '}')), expect: (a) => { assert.equal(a.statusCode, 400); assert.equal(bodyOf(a).code, 'FST_ERR_CTP_JSON_TOO_DEEP') } },
  { name: 'nesting at the limit (128) is accepted', raw: json('/echo', deep(128, '[', ']')), expect: 200 },
  { name: 'nesting one over the limit (129)', raw: json('/echo', deep(129, '[', ']')), expect: 400 },
  { name: 'brackets inside strings do not count as nesting', raw: json('/echo', `["${'['.repeat(5000)}\\"${'{'.repeat(5000)}"]`), expect: 200 },
  { name: 'large valid JSON (about 900 KB)', raw: json('/echo', `[${'12345678,'.repeat(100000)}1]`), expect: 200 },
  { name: 'invalid UTF-8 inside a JSON string', raw: json('/echo', Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0xc3, 0x22, 0x5d]) as unknown as string), expect: [200, 400] },
  { name: 'JSON with a byte order mark', raw: json('/echo', '\ufeff{"a":1}'), expect: [200, 400] },
  { name: 'duplicate keys', raw: json('/echo', '{"a":1,"a":2}'), expect: (a) => { assert.equal(a.statusCode, 200); assert.equal(bodyOf(a).body.a, 2) } },
  { name: 'schema: an additional property is removed (Ajv removeAdditional, as Fastify)', raw: json('/typed', '{"name":"a","admin":true}'), expect: (a) => assert.deepEqual(bodyOf(a), { name: 'a' }) },
  { name: 'schema: wrong type', raw: json('/typed', '{"name":{"first":"a"}}'), expect: 400 },
  { name: 'schema: required property missing', raw: json('/typed', '{}'), expect: 400 },
  { name: 'schema: string over maxLength', raw: json('/typed', `{"name":"${'n'.repeat(51)}"}`), expect: 400 },
  // ---- prototype poisoning: body, query, params
  { name: 'body __proto__', raw: json('/echo', '{"__proto__":{"polluted":true}}'), expect: 400 },
  { name: 'body unicode-escaped __proto__', raw: json('/echo', '{"\\u005f_proto__":{"polluted":true}}'), expect: 400 },
  { name: 'body fully escaped __proto__', raw: json('/echo', '{"\\u005f\\u005f\\u0070\\u0072\\u006f\\u0074\\u006f\\u005f\\u005f":{"polluted":true}}'), expect: 400 },
  { name: 'body nested __proto__', raw: json('/echo', '{"a":{"b":{"__proto__":{"polluted":true}}}}'), expect: 400 },
  { name: 'body __proto__ inside an array', raw: json('/echo', '[{"__proto__":{"polluted":true}}]'), expect: 400 },
  { name: 'body constructor.prototype', raw: json('/echo', '{"constructor":{"prototype":{"polluted":true}}}'), expect: 400 },
  { name: 'body nested constructor.prototype', raw: json('/echo', '{"a":[{"constructor":{"prototype":{"polluted":true}}}]}'), expect: 400 },
  { name: 'body "constructor" alone is data', raw: json('/echo', '{"constructor":1}'), expect: 200 },
  { name: 'body "__proto__" as a value is data', raw: json('/echo', '{"a":"__proto__"}'), expect: 200 },
  { name: 'body __proto__ through a schema route', raw: json('/typed', '{"name":"a","__proto__":{"polluted":true}}'), expect: 400 },
  { name: 'query __proto__[polluted]', raw: req('GET', '/echo-query?__proto__[polluted]=1'), expect: 200 },
  { name: 'query __proto__=x', raw: req('GET', '/echo-query?__proto__=x&a=1'), expect: 200 },
  { name: 'query constructor[prototype][polluted]', raw: req('GET', '/echo-query?constructor[prototype][polluted]=1'), expect: 200 },
  { name: 'query __proto__ on a schema route', raw: req('GET', '/search?__proto__=x&q=ok'), expect: 200 },
  { name: 'param __proto__', raw: req('GET', '/params/__proto__'), expect: (a) => assert.deepEqual(bodyOf(a), { name: '__proto__' }) },
  { name: 'param constructor', raw: req('GET', '/params/constructor'), expect: (a) => assert.deepEqual(bodyOf(a), { name: 'constructor' }) },
  { name: 'param __proto__ where an integer is expected', raw: req('GET', '/items/__proto__'), expect: 400 },
  // ---- media-type confusion
  { name: 'media type application/json', raw: json('/echo', '{"a":1}'), expect: (a) => assert.equal(bodyOf(a).type, 'object') },
  { name: 'media type in upper case', raw: json('/echo', '{"a":1}', 'APPLICATION/JSON'), expect: (a) => assert.equal(bodyOf(a).type, 'object') },
  { name: 'media type with charset', raw: json('/echo', '{"a":1}', 'application/json; charset=utf-8'), expect: 200 },
  { name: 'media type with quoted charset', raw: json('/echo', '{"a":1}', 'application/json; charset="utf-8"'), expect: 200 },
  { name: 'media type with a tab before the parameter', raw: json('/echo', '{"a":1}', 'application/json;\tcharset=utf-8'), expect: 200 },
  { name: 'media type with surrounding whitespace', raw: json('/echo', '{"a":1}', '  application/json  '), expect: 200 },
  { name: 'space inside the media type (after the slash)', raw: json('/echo', '{"a":1}', 'application/ json'), expect: 415 },
  { name: 'space inside the media type (before the slash)', raw: json('/echo', '{"a":1}', 'application /json'), expect: 415 },
  { name: 'look-alike subtype application/jsonx', raw: json('/echo', '{"a":1}', 'application/jsonx'), expect: 415 },
  { name: 'look-alike type application/json-patch+json', raw: json('/echo', '{"a":1}', 'application/json-patch+json'), expect: 415 },
  { name: 'garbage after the subtype', raw: json('/echo', '{"a":1}', 'application/json garbage'), expect: 415 },
  { name: 'parameter without a semicolon', raw: json('/echo', '{"a":1}', 'application/json charset=utf-8'), expect: 415 },
  { name: 'CVE-2022-41919: JSON named in a text/plain parameter', raw: json('/echo', '{"a":1}', 'text/plain; content-type="application/json"'), expect: (a) => assert.equal(bodyOf(a).type, 'string') },
  { name: 'CVE-2022-39288: Content-Type: constructor', raw: json('/echo', '{"a":1}', 'constructor'), expect: 415 },
  { name: 'Content-Type: __proto__', raw: json('/echo', '{"a":1}', '__proto__'), expect: 415 },
  { name: 'Content-Type: toString', raw: json('/echo', '{"a":1}', 'toString'), expect: 415 },
  { name: 'Content-Type: hasOwnProperty/json', raw: json('/echo', '{"a":1}', 'hasOwnProperty/json'), expect: 415 },
  { name: 'Content-Type: constructor/prototype', raw: json('/echo', '{"a":1}', 'constructor/prototype'), expect: 415 },
  { name: 'missing Content-Type with a body', raw: req('POST', '/echo', {}, '{"a":1}'), expect: 415 },
  { name: 'empty Content-Type', raw: json('/echo', '{"a":1}', ''), expect: 415 },
  { name: 'comma list of media types', raw: json('/echo', '{"a":1}', 'application/json, text/plain'), expect: 415 },
  { name: 'two Content-Type headers', raw: 'POST /echo HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{"a":1}', expect: (a) => assert.ok(a.statusCode === 400 || a.statusCode === 415 || bodyOf(a).type === 'string', String(a.statusCode)) },
  { name: 'trailing semicolon', raw: json('/echo', '{"a":1}', 'application/json;'), expect: [200, 415] },
  { name: 'unknown type multipart/form-data', raw: json('/echo', '{"a":1}', 'multipart/form-data; boundary=x'), expect: 415 },
  { name: 'unknown type text/html', raw: json('/echo', '{"a":1}', 'text/html'), expect: 415 },
  { name: 'vendor JSON type without a parser', raw: json('/echo', '{"a":1}', 'application/vnd.api+json'), expect: 415 },
  { name: 'NUL byte in Content-Type', raw: json('/echo', '{"a":1}', 'application/json\u0000'), expect: 400 },
  // ---- percent-encoding
  { name: 'bad percent-encoding in the path (%ZZ)', raw: req('GET', '/params/%ZZ'), expect: 400 },
  { name: 'truncated UTF-8 sequence in the path', raw: req('GET', '/params/%E0%A4%A'), expect: 400 },
  { name: 'overlong UTF-8 in the path', raw: req('GET', '/params/%C0%AF'), expect: 400 },
  { name: 'lone percent sign in the path', raw: req('GET', '/params/%'), expect: 400 },
  { name: 'bad percent-encoding in the query', raw: req('GET', '/search?q=%ZZ'), expect: 200 },
  { name: 'truncated UTF-8 in the query', raw: req('GET', '/search?q=%E0%A4%A'), expect: 200 },
  { name: 'encoded NUL in a param', raw: req('GET', '/params/a%00b'), expect: (a) => assert.deepEqual(bodyOf(a), { name: 'a\u0000b' }) },
  { name: 'encoded dot-dot in a param', raw: req('GET', '/params/%2e%2e'), expect: 200 },
  { name: 'encoded NUL as the whole path', raw: req('GET', '/%00'), expect: 404 },
  // ---- sizes
  { name: 'param over maxParamLength', raw: req('GET', `/params/${'p'.repeat(101)}`), expect: 404 },
  { name: 'param at maxParamLength', raw: req('GET', `/params/${'p'.repeat(100)}`), expect: 200 },
  { name: 'URL of 64 KB', raw: req('GET', `/search?q=${'u'.repeat(64 * 1024)}`), expect: 431 },
  { name: 'query value over the schema maxLength', raw: req('GET', `/search?q=${'u'.repeat(101)}`), expect: 400 },
  { name: 'header value of 20 KB', raw: req('GET', '/health', { 'X-Big': 'v'.repeat(20 * 1024) }), expect: 431 },
  { name: '100 headers', raw: req('GET', '/health', Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`X-H${i}`, 'v']))), expect: 200 },
  { name: '3,000 headers', raw: req('GET', '/health', Object.fromEntries(Array.from({ length: 3000 }, (_, i) => [`X-H${i}`, 'v']))), expect: 431 },
  { name: '1,500 query parameters', raw: req('GET', `/echo-query?${Array.from({ length: 1500 }, (_, i) => `k${i}=v`).join('&')}`), expect: 200 },
  // ---- methods
  { name: 'HEAD has no body', raw: req('HEAD', '/health'), expect: (a) => { assert.equal(a.statusCode, 200); assert.equal(a.body, '') } },
  { name: 'OPTIONS on a GET route', raw: req('OPTIONS', '/health'), expect: 404 },
  { name: 'DELETE on a GET route', raw: req('DELETE', '/health'), expect: 404 },
  { name: 'POST with a body on a GET route', raw: json('/health', '{"a":1}'), expect: 404 },
  { name: 'TRACE', raw: req('TRACE', '/health'), expect: 404 },
  { name: 'PROPFIND (a method node knows, no route)', raw: req('PROPFIND', '/health'), expect: 404 },
  { name: 'unknown method BREW', raw: req('BREW', '/health'), expect: 400 },
  { name: 'lower-case method', raw: req('get', '/health'), expect: 400 },
  { name: 'CONNECT (no tunnel offered)', raw: 'CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n', expect: null },
  { name: 'GET with a JSON body is read and ignored', raw: req('GET', '/health', { 'Content-Type': 'application/json' }, '{"a":'), expect: [200, 400] },
  // ---- auth bypass attempts on the bearer-protected prefix /x
  { name: 'auth: valid key (control)', raw: auth('/x/data', `Bearer ${API_KEY}`), expect: 200 },
  { name: 'auth: scheme in lower case is accepted', raw: auth('/x/data', `bearer ${API_KEY}`), expect: 200 },
  { name: 'auth: no header', raw: auth('/x/data'), expect: 401 },
  { name: 'auth: Basic scheme with the key', raw: auth('/x/data', `Basic ${API_KEY}`), expect: 401 },
  { name: 'auth: Token scheme with the key', raw: auth('/x/data', `Token ${API_KEY}`), expect: 401 },
  { name: 'auth: any scheme in front of the key', raw: auth('/x/data', `Bogus Bearer ${API_KEY}`), expect: 401 },
  { name: 'auth: key without a scheme', raw: auth('/x/data', API_KEY), expect: 401 },
  { name: 'auth: scheme glued to the key', raw: auth('/x/data', `Bearer${API_KEY}`), expect: 401 },
  { name: 'auth: key one character short', raw: auth('/x/data', `Bearer ${API_KEY.slice(0, -1)}`), expect: 401 },
  { name: 'auth: key one character long', raw: auth('/x/data', `Bearer ${API_KEY}4`), expect: 401 },
  { name: 'auth: key in another case', raw: auth('/x/data', `Bearer ${API_KEY.toUpperCase()}`), expect: 401 },
  { name: 'auth: key twice', raw: auth('/x/data', `Bearer ${API_KEY} ${API_KEY}`), expect: 401 },
  { name: 'auth: empty bearer', raw: auth('/x/data', 'Bearer '), expect: 401 },
  { name: 'auth: double slash //x/data', raw: auth('//x/data'), expect: [401, 404] },
  { name: 'auth: upper-case prefix /X/data', raw: auth('/X/data'), expect: [401, 404] },
  { name: 'auth: /x/..%2Fx/data', raw: auth('/x/..%2Fx/data'), expect: [400, 401, 404] },
  { name: 'auth: /x/../x/data', raw: auth('/x/../x/data'), expect: [400, 401, 404] },
  { name: 'auth: trailing slash /x/data/', raw: auth('/x/data/'), expect: [401, 404] },
  { name: 'auth: encoded slash /x%2Fdata', raw: auth('/x%2Fdata'), expect: [400, 401, 404] },
  { name: 'auth: encoded letter /x/%64ata', raw: auth('/x/%64ata'), expect: [401, 404] },
  { name: 'auth: /x/./data', raw: auth('/x/./data'), expect: [400, 401, 404] },
  { name: 'auth: prefix index /x', raw: auth('/x'), expect: [401, 404] },
  { name: 'auth: prefix index /x/', raw: auth('/x/'), expect: [401, 404] },
  { name: 'auth: query after the path', raw: auth('/x/data?admin=1'), expect: 401 },
  { name: 'auth: fragment in the request target', raw: auth('/x/data#frag'), expect: [400, 401, 404] },
  { name: 'auth: semicolon path parameter', raw: auth('/x/data;jsessionid=1'), expect: [401, 404] },
  { name: 'auth: absolute-form target', raw: auth('http://x/x/data'), expect: [400, 401, 404] },
  // ---- X-Forwarded-* without trustProxy
  { name: 'X-Forwarded-For is not trusted', raw: req('GET', '/ip', { 'X-Forwarded-For': '1.2.3.4' }), expect: (a) => assert.equal(bodyOf(a).ip, '127.0.0.1') },
  { name: 'X-Forwarded-Host is not trusted', raw: req('GET', '/ip', { 'X-Forwarded-Host': 'evil.example' }), expect: (a) => assert.equal(bodyOf(a).hostname, 'x') },
  { name: 'X-Forwarded-Proto is not trusted', raw: req('GET', '/ip', { 'X-Forwarded-Proto': 'https' }), expect: (a) => assert.equal(bodyOf(a).protocol, 'http') },
  { name: 'Forwarded header is not trusted', raw: req('GET', '/ip', { Forwarded: 'for=1.2.3.4;proto=https;host=evil.example' }), expect: (a) => assert.deepEqual([bodyOf(a).ip, bodyOf(a).protocol, bodyOf(a).hostname], ['127.0.0.1', 'http', 'x']) },
  // ---- text bodies
  { name: 'text body', raw: json('/text', 'hello', 'text/plain'), expect: (a) => assert.deepEqual(bodyOf(a), { length: 5 }) },
  { name: 'text body with an unknown charset', raw: json('/text', 'hello', 'text/plain; charset=klingon'), expect: [200, 415] }
]

const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype).sort()
const machinePaths = [process.cwd(), __dirname, 'node_modules', 'file://', 'node:internal']

function check (c: Case, text: string): void {
  if (text === '') {
    assert.equal(c.expect, null, 'the server answered nothing')
    return
  }
  const res = parseRaw(text)
  const answer: Answer = { ...res, text }
  if (typeof c.expect === 'function') c.expect(answer)
  else if (Array.isArray(c.expect)) assert.ok(c.expect.includes(res.statusCode), `status ${res.statusCode}, expected one of ${c.expect.join(', ')}: ${res.body.slice(0, 200)}`)
  else if (c.expect !== null) assert.equal(res.statusCode, c.expect, res.body.slice(0, 200))
  assert.ok(res.statusCode < 500, `no 5xx: ${res.statusCode} ${res.body.slice(0, 200)}`)
  assert.ok(noStack(text), 'no stack trace')
  for (const p of machinePaths) assert.ok(!text.includes(p), `no machine path (${p})`)
  const isHead = typeof c.raw === 'string' ? c.raw.startsWith('HEAD ') : c.raw.subarray(0, 5).toString() === 'HEAD '
  if (res.headers['transfer-encoding'] === undefined && !isHead) {
    assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body, 'latin1'), 'Content-Length is the byte length of the body')
  }
  if (res.statusCode >= 400) {
    assert.match(res.headers['content-type'] ?? '', /^application\/json/)
    const parsed = JSON.parse(Buffer.from(res.body, 'latin1').toString('utf8'))
    assert.equal(typeof parsed, 'object')
  }
}

describe('bad input over a real socket', () => {
  let app: TrellisInstance
  let port = 0
  before(async () => { app = buildFixture(); port = (await listen(app)).port })
  after(async () => { await app.close() })

  it(`has at least 80 cases (${cases.length})`, () => { assert.ok(cases.length >= 80) })

  for (const c of cases) {
    it(c.name, async () => {
      const text = await rawRequest(port, c.raw, c.timeoutMs ?? 3000)
      check(c, text)
      // after every case: the server still serves, and Object.prototype is clean
      const health = await request(port, { path: '/health' })
      assert.equal(health.statusCode, 200)
      assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), PROTO_NAMES)
      assert.equal(({} as Record<string, unknown>).polluted, undefined)
    })
  }
})
