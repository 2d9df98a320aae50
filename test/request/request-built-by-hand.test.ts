// A Request built by hand, outside any route, as Fastify allows: `new Request(id, params, req, query,
// log, context)` from `fastify/lib/request`, with Fastify's route context (a plain object) or none.
// Each case reads the same accessors on trellis (both lines, through src/compat/fastify-lib, the
// modules the package alias serves as `fastify/lib/request`) and on the real fastify@4.29.1 and
// @5.12.8, over a real socket and with the plain request objects Fastify's own tests use.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'
import RequestV4 = require('../../src/compat/fastify-lib/request-v4')
import RequestV5 = require('../../src/compat/fastify-lib/request')
import trellisSymbols = require('../../src/compat/fastify-lib/symbols')

interface Pair { line: 4 | 5, Trellis: any, Fastify: any, kTrellis: symbol, kFastify: symbol, trellisFactory: any, fastifyFactory: any }
const pairs: Pair[] = [
  { line: 4, Trellis: RequestV4, Fastify: require('fastify429/lib/request'), kTrellis: trellisSymbols.kRouteContext, kFastify: require('fastify429/lib/symbols').kRouteContext, trellisFactory: trellisV4, fastifyFactory: require('fastify429') },
  { line: 5, Trellis: RequestV5, Fastify: require('fastify/lib/request'), kTrellis: trellisSymbols.kRouteContext, kFastify: require('fastify/lib/symbols').kRouteContext, trellisFactory: trellisV5, fastifyFactory: require('fastify') }
]

const log = { info () {} }

/** What code reads of a request: its fields and the accessors derived from the raw request. */
function read (request: any, req: unknown, context: unknown, kRouteContext: symbol): Record<string, unknown> {
  return {
    id: request.id,
    params: request.params,
    query: request.query,
    sameLog: request.log === log,
    body: request.body,
    sameRaw: request.raw === req,
    sameHeaders: request.headers === (req as IncomingMessage).headers,
    sameSocket: request.socket === (req as IncomingMessage).socket,
    sameContext: request[kRouteContext] === context,
    url: request.url,
    method: request.method,
    ip: request.ip,
    ips: request.ips,
    hostname: request.hostname,
    host: request.host,
    port: request.port,
    protocol: request.protocol
  }
}

/** `look` run on the request of one real HTTP exchange (Host and extra headers as given). */
async function overSocket<T> (headers: Record<string, string>, look: (req: IncomingMessage) => T): Promise<T> {
  let seen: T | undefined
  const server = createServer((req, res) => { seen = look(req); res.end() })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    await new Promise<void>((resolve, reject) => {
      const out = httpRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/notes/7?q=1', headers }, (res) => { res.resume(); res.on('end', resolve) })
      out.on('error', reject)
      out.end()
    })
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
  return seen as T
}

for (const { line, Trellis, Fastify, kTrellis, kFastify } of pairs) {
  const name = `Fastify ${line} line (fastify@${line === 4 ? '4.29.1' : '5.12.8'})`

  test(`${name}: ip, protocol and hostname of a request built by hand over a real socket are Fastify's`, async () => {
    for (const context of [{}, { config: { url: '/notes/:id' }, server: null }, undefined]) {
      const [ours, theirs] = await overSocket({ host: 'notes.example:8080' }, (req) => [
        read(new Trellis('req-1', { id: '7' }, req, { q: '1' }, log, context), req, context, kTrellis),
        read(new Fastify('req-1', { id: '7' }, req, { q: '1' }, log, context), req, context, kFastify)
      ])
      assert.equal(ours.ip, '127.0.0.1')
      assert.equal(ours.protocol, 'http')
      assert.equal(ours.hostname, line === 4 ? 'notes.example:8080' : 'notes.example')
      assert.deepEqual(ours, theirs)
    }
  })

  test(`${name}: forwarded headers are not believed by the plain Request`, async () => {
    const headers = { host: 'notes.example', 'x-forwarded-for': '9.9.9.9', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' }
    const [ours, theirs] = await overSocket(headers, (req) => [
      read(new Trellis('r', {}, req, {}, log, {}), req, {}, kTrellis),
      read(new Fastify('r', {}, req, {}, log, {}), req, {}, kFastify)
    ])
    assert.equal(ours.ip, '127.0.0.1')
    assert.deepEqual(ours, theirs)
  })

  test(`${name}: buildRequest(Request, true) believes the proxy's forwarded headers`, async () => {
    const headers = { host: 'notes.example', 'x-forwarded-for': '9.9.9.9, 8.8.8.8', 'x-forwarded-host': 'api.example:8443', 'x-forwarded-proto': 'https' }
    const Ours = Trellis.buildRequest(Trellis, true)
    const Theirs = Fastify.buildRequest(Fastify, true)
    const [ours, theirs] = await overSocket(headers, (req) => [
      read(new Ours('r', {}, req, {}, log, {}), req, {}, kTrellis),
      read(new Theirs('r', {}, req, {}, log, {}), req, {}, kFastify)
    ])
    assert.equal(ours.ip, '9.9.9.9')
    assert.equal(ours.protocol, 'https')
    assert.deepEqual(ours, theirs)
    assert.ok(new Ours('r', {}, { headers: {} }, {}, log, {}) instanceof Trellis)
  })

  test(`${name}: host, hostname and port from plain request objects (Host, IPv6, :authority, none)`, () => {
    const fixtures = [
      { headers: { host: 'example.com:80' } },
      { headers: { host: '[::1]:443' } },
      { headers: { host: '[::1]' } },
      { headers: { ':authority': '1.2.3.4:80' } },
      { headers: {} },
      { headers: { host: 'example.com' }, socket: { remoteAddress: '10.0.0.1', encrypted: true } }
    ]
    for (const req of fixtures) {
      const ours = read(new Trellis(1, {}, req, '', log, {}), req, {}, kTrellis)
      const theirs = read(new Fastify(1, {}, req, '', log, {}), req, {}, kFastify)
      // these objects have no url or method: trellis reads them as '/' and 'GET', Fastify as undefined
      assert.deepEqual({ ...ours, url: undefined, method: undefined }, theirs, JSON.stringify(req))
    }
  })
}

for (const { line, Trellis, trellisFactory } of pairs) {
  test(`trellis, Fastify ${line} line: lib/request is the class of every route's request; subclasses and prototype methods work`, async (t) => {
    class Custom extends Trellis {
      tag (): string { return `custom ${String(this.hostname)}` }
    }
    // (a class extending `any` gets a constructor of no parameters in TypeScript's eyes)
    const custom = new (Custom as new (...args: unknown[]) => Custom)('r', {}, { headers: { host: 'a.example' } }, {}, log, {})
    assert.ok(custom instanceof Custom)
    assert.ok(custom instanceof Trellis)
    assert.equal(custom.tag(), 'custom a.example')

    Trellis.prototype.fromLib = function (this: { id: string }) { return `lib ${this.id}` }
    t.after(() => { delete Trellis.prototype.fromLib })
    const app = trellisFactory()
    t.after(() => app.close())
    app.decorateRequest('user', null)
    app.get('/', async (request: any) => ({ isInstance: request instanceof Trellis, fromLib: request.fromLib() }))
    const body = (await app.inject('/')).json()
    assert.equal(body.isInstance, true)
    assert.match(body.fromLib, /^lib \S+$/)
    assert.throws(() => (Trellis as any)('r', {}, { headers: {} }, {}, log, {}), TypeError)
  })
}
