// What the transport hands Bun.serve and Deno.serve (serveNative) against what app.fetch returns
// (serveFetch): the Response itself when the request path answered before dispatch returned (a
// Promise otherwise), and no Content-Length for a body given whole (those servers write it from
// the body); app.fetch keeps the reply's headers as a socket sends them.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { serveFetch, serveNative } from '../../src/transport/fetch'
import type { Dispatch } from '../../src/transport/contract'
import { contextOf } from '../../src/context/plugin-context'
import trellisV4 from '../../src/index'

const json: Dispatch = (_req, res) => {
  res.setHeader('content-type', 'application/json; charset=utf-8')
  res.setHeader('content-length', '17')
  res.end('{"hello":"world"}')
}

test('an answer given during dispatch is handed to the runtime as a Response, without Content-Length', async () => {
  const answer = serveNative(json, new Request('http://localhost/'), undefined)
  assert.ok(answer instanceof Response, 'a Response, not a Promise')
  assert.equal(answer.status, 200)
  assert.equal(answer.headers.get('content-length'), null)
  assert.equal(answer.headers.get('content-type'), 'application/json; charset=utf-8')
  assert.equal(await answer.text(), '{"hello":"world"}')
})

test('app.fetch keeps the Content-Length the reply set', async () => {
  const answer = serveFetch(json, new Request('http://localhost/'), [])
  assert.ok(answer instanceof Promise)
  const res = await answer
  assert.equal(res.headers.get('content-length'), '17')
  assert.equal(await res.text(), '{"hello":"world"}')
})

test('an answer given later reaches the runtime through a Promise', async () => {
  const later: Dispatch = (req, res) => { setImmediate(() => json(req, res)) }
  const answer = serveNative(later, new Request('http://localhost/'), undefined)
  assert.ok(answer instanceof Promise)
  const res = await answer
  assert.equal(res.headers.get('content-length'), null)
  assert.equal(await res.text(), '{"hello":"world"}')
})

test('a HEAD answer and a streamed body keep their Content-Length: the runtime has no body to count', async () => {
  const head = serveNative(json, new Request('http://localhost/', { method: 'HEAD' }), undefined) as Response
  assert.equal(head.headers.get('content-length'), '17')
  const streamed: Dispatch = (_req, res) => {
    res.setHeader('content-length', '4')
    res.write('ab')
    res.end('cd')
  }
  const res = serveNative(streamed, new Request('http://localhost/'), undefined) as Response
  assert.equal(res.headers.get('content-length'), '4')
  assert.equal(await res.text(), 'abcd')
})

test('a dispatch that fails before answering hands the runtime a rejected Promise', async () => {
  const failing: Dispatch = () => { throw new Error('boom') }
  const answer = serveNative(failing, new Request('http://localhost/'), undefined)
  assert.ok(answer instanceof Promise)
  await assert.rejects(answer, /boom/)
})

test('an application whose handler answers synchronously hands the runtime a Response; an async one a Promise', async () => {
  const app = (trellisV4 as unknown as () => any)()
  let responded = 0
  app.addHook('onResponse', async () => { responded++ })
  app.get('/sync', { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } }, (_req: unknown, reply: any) => { reply.send({ hello: 'world' }) })
  app.get('/async', async () => ({ hello: 'world' }))
  await app.ready()
  // what listen() hands Bun.serve and Deno.serve: the application's dispatch
  const dispatch = contextOf(app).app.dispatcher.dispatch as unknown as Dispatch
  const sync = serveNative(dispatch, new Request('http://localhost/sync'), undefined)
  assert.ok(sync instanceof Response, 'a Response, not a Promise')
  assert.equal(sync.headers.get('content-length'), null)
  assert.deepEqual(await sync.json(), { hello: 'world' })
  const later = serveNative(dispatch, new Request('http://localhost/async'), undefined)
  assert.ok(later instanceof Promise)
  assert.deepEqual(await (await later).json(), { hello: 'world' })
  await new Promise((resolve) => setImmediate(resolve))
  assert.equal(responded, 2)
  await app.close()
})

test('the headers reach the Response as set: a number, a list, a __proto__ header, no hop-by-hop', async () => {
  for (const withList of [false, true]) {
    const dispatch: Dispatch = (_req, res) => {
      res.setHeader('content-type', 'text/plain')
      res.setHeader('x-count', 3)
      res.setHeader('__proto__', 'kept')
      res.setHeader('connection', 'keep-alive')
      if (withList) res.setHeader('set-cookie', ['a=1', 'b=2'])
      res.end('ok')
    }
    for (const answer of [await serveFetch(dispatch, new Request('http://localhost/'), []), serveNative(dispatch, new Request('http://localhost/'), undefined) as Response]) {
      assert.equal(answer.headers.get('x-count'), '3')
      assert.equal(answer.headers.get('__proto__'), 'kept')
      assert.equal(answer.headers.get('connection'), null)
      assert.deepEqual(answer.headers.getSetCookie(), withList ? ['a=1', 'b=2'] : [])
      assert.equal(await answer.text(), 'ok')
    }
  }
})
