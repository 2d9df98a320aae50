// A Reply built by hand, outside any route, as Fastify allows and @nestjs/platform-fastify does to
// answer from a middleware: `new Reply(res, { [kRouteContext]: {...} }, log)` from `fastify/lib/reply`
// and `fastify/lib/symbols`, then `.status(403).send(body)`. Each case runs over a real socket on
// trellis (both lines, through src/compat/fastify-lib) and on the real fastify@4.29.1 and @5.12.8.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'
import ReplyV4 = require('../../src/compat/fastify-lib/reply-v4')
import ReplyV5 = require('../../src/compat/fastify-lib/reply')
import trellisSymbols = require('../../src/compat/fastify-lib/symbols')

interface Target { name: string, Reply: any, symbols: Record<string, symbol>, factory: (opts?: object) => any }
const targets: Target[] = [
  { name: 'trellis (Fastify 4 line)', Reply: ReplyV4, symbols: trellisSymbols, factory: trellisV4 as any },
  { name: 'trellis/v5', Reply: ReplyV5, symbols: trellisSymbols, factory: trellisV5 as any },
  { name: 'fastify@4.29.1', Reply: require('fastify429/lib/reply'), symbols: require('fastify429/lib/symbols'), factory: require('fastify429') },
  { name: 'fastify@5.12.8', Reply: require('fastify/lib/reply'), symbols: require('fastify/lib/symbols'), factory: require('fastify') }
]

/** Nest 10 and 11's route context of a reply around a raw response. */
const nestContext = (): Record<string, unknown> => ({ preSerialization: null, preValidation: [], preHandler: [], onSend: [], onError: [] })

interface Answer { status: number, headers: Record<string, string>, body: string }

/** Serves one request with `handle`, asks for it over a real socket and closes. */
async function serveOnce (handle: (req: IncomingMessage, res: ServerResponse) => void, method = 'GET'): Promise<Answer> {
  const server = createServer(handle)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method, redirect: 'manual' })
    const headers: Record<string, string> = {}
    for (const [k, v] of res.headers) if (k !== 'date' && k !== 'connection' && k !== 'keep-alive') headers[k] = v
    return { status: res.status, headers, body: await res.text() }
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

for (const { name, Reply, symbols } of targets) {
  const { kRouteContext } = symbols

  test(`${name}: Nest's middleware answer, status(403).send(object), is a 403 with the JSON body`, async () => {
    const answer = await serveOnce((_req, res) => {
      new Reply(res, { [kRouteContext]: nestContext() }, {}).status(403).send({ statusCode: 403, message: 'Forbidden resource' })
    })
    assert.deepEqual(answer, {
      status: 403,
      headers: { 'content-type': 'application/json; charset=utf-8', 'content-length': '49' },
      body: '{"statusCode":403,"message":"Forbidden resource"}'
    })
  })

  test(`${name}: a hand-made reply sends strings, buffers, streams, headers, redirects and empty bodies`, async () => {
    const text = await serveOnce((_req, res) => { new Reply(res, { [kRouteContext]: nestContext() }, {}).code(401).header('x-a', '1').send('no') })
    assert.deepEqual(text, { status: 401, headers: { 'content-type': 'text/plain; charset=utf-8', 'content-length': '2', 'x-a': '1' }, body: 'no' })
    const bytes = await serveOnce((_req, res) => { new Reply(res, { [kRouteContext]: nestContext() }, {}).send(Buffer.from('abc')) })
    assert.deepEqual(bytes, { status: 200, headers: { 'content-type': 'application/octet-stream', 'content-length': '3' }, body: 'abc' })
    const stream = await serveOnce((_req, res) => { new Reply(res, { [kRouteContext]: nestContext() }, {}).type('text/plain').send(Readable.from(['a', 'b'])) })
    assert.deepEqual(stream, { status: 200, headers: { 'content-type': 'text/plain', 'transfer-encoding': 'chunked' }, body: 'ab' })
    const moved = await serveOnce((_req, res) => { new Reply(res, { [kRouteContext]: nestContext() }, {}).redirect('/there', 301) })
    assert.deepEqual(moved, { status: 301, headers: { location: '/there', 'content-length': '0' }, body: '' })
    const none = await serveOnce((_req, res) => { new Reply(res, { [kRouteContext]: nestContext() }, {}).code(204).send() })
    assert.deepEqual(none, { status: 204, headers: {}, body: '' })
    const head = await serveOnce((_req, res) => { new Reply(res, { [kRouteContext]: nestContext() }, {}).send({ a: 1 }) }, 'HEAD')
    assert.equal(head.status, 200)
    assert.equal(head.body, '')
  })

  test(`${name}: the context's onSend and preSerialization hooks run on a hand-made reply`, async () => {
    const answer = await serveOnce((_req, res) => {
      const context = {
        ...nestContext(),
        preSerialization: [(_request: unknown, _reply: unknown, payload: Record<string, unknown>, done: (e: null, v: unknown) => void) => { done(null, { ...payload, pre: true }) }],
        onSend: [(_request: unknown, reply: any, payload: unknown, done: (e: null, v: unknown) => void) => { reply.header('x-on-send', 'yes'); done(null, payload) }]
      }
      new Reply(res, { [kRouteContext]: context }, {}).send({ a: 1 })
    })
    assert.equal(answer.status, 200)
    assert.equal(answer.headers['x-on-send'], 'yes')
    assert.deepEqual(JSON.parse(answer.body), { a: 1, pre: true })
  })

  test(`${name}: an error sent on Nest 12's hand-made reply goes to the instance's error handler`, async (t) => {
    const app = targets.find((x) => x.name === name)!.factory()
    app.setErrorHandler((err: Error, _request: unknown, reply: any) => { reply.code(418).send({ handled: err.message }) })
    await app.ready()
    t.after(() => app.close())
    const answer = await serveOnce((req, res) => {
      const request = {
        raw: req,
        server: app,
        log: app.log,
        [kRouteContext]: { ...nestContext(), server: app, errorHandler: app[symbols.kErrorHandler] }
      }
      new Reply(res, request, app.log).send(new Error('from middleware'))
    })
    assert.equal(answer.status, 418)
    assert.deepEqual(JSON.parse(answer.body), { handled: 'from middleware' })
  })
}

test('trellis: an error sent on a hand-made reply without an error handler is answered by the default one (Fastify throws a TypeError)', async () => {
  for (const Reply of [ReplyV4, ReplyV5]) {
    const answer = await serveOnce((_req, res) => { new (Reply as any)(res, { [trellisSymbols.kRouteContext]: nestContext() }, {}).send(new Error('boom')) })
    assert.equal(answer.status, 500)
    assert.deepEqual(JSON.parse(answer.body), { statusCode: 500, error: 'Internal Server Error', message: 'boom' })
  }
})

test('trellis: a hand-made reply follows the line of its class, and keeps the request it was given', async () => {
  const given = { [trellisSymbols.kRouteContext]: nestContext(), tag: 'nest' }
  await serveOnce((req, res) => {
    const v4 = new (ReplyV4 as any)(res, given, {})
    const v5 = new (ReplyV5 as any)(res, given, {})
    assert.equal(v4.routeContext.env.line, 4)
    assert.equal(v5.routeContext.env.line, 5)
    assert.equal(v5.request.tag, 'nest')
    assert.equal(v5.request.raw, req)
    assert.equal(v5.server, undefined)
    v5.send('ok')
  })
})
