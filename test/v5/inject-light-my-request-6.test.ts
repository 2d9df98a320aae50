/**
 * inject on the v5 line has light-my-request 6's interface and behaviour (what Fastify 5 ships), each
 * assertion checked against trellis/v5 and the real fastify@5; the v4 line keeps light-my-request 5's.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { PassThrough, Readable } from 'node:stream'
import { v4, v5Targets } from './lines'

async function readAll (stream: NodeJS.ReadableStream): Promise<string> {
  let body = ''
  for await (const chunk of stream) body += String(chunk)
  return body
}

for (const [name, factory] of v5Targets) {
  test(`${name}: inject(opts, cb) with payloadAsStream calls back at the headers; stream() holds the payload as it comes`, { timeout: 20_000 }, async () => {
    const app = factory()
    let source: PassThrough | undefined
    app.get('/events', (_request: any, reply: any) => {
      source = new PassThrough()
      reply.header('content-type', 'text/plain').send(source)
      source.write('first ')
    })
    const body = await new Promise<string>((resolve, reject) => {
      app.inject({ url: '/events', payloadAsStream: true }, (err: Error | null, res: any) => {
        if (err !== null) { reject(err); return }
        assert.equal(res.statusCode, 200)
        // the reply is still streaming: light-my-request 5 would call back only once it ended
        assert.equal(res.body, undefined)
        assert.throws(() => res.json(), /payloadAsStream/)
        readAll(res.stream()).then(resolve, reject)
        source?.end('second')
      })
    })
    assert.equal(body, 'first second')
    await app.close()
  })

  test(`${name}: inject() with payloadAsStream resolves with a streamed response`, async () => {
    const app = factory()
    app.get('/', async () => ({ hello: 'world' }))
    const res = await app.inject({ url: '/', payloadAsStream: true })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(JSON.parse(await readAll(res.stream())), { hello: 'world' })
    await app.close()
  })

  test(`${name}: a header given as an array reaches the application as Node joins repeated lines`, async () => {
    const app = factory()
    app.get('/', async (request: any) => ({ headers: request.headers, raw: request.raw.rawHeaders }))
    const res = await app.inject({
      url: '/',
      headers: { 'x-list': ['a', 'b'], authorization: ['first', 'second'], cookie: ['u=1', 'v=2'], 'set-cookie': ['s=1', 't=2'] }
    })
    const { headers, raw } = res.json()
    assert.equal(headers['x-list'], 'a, b')
    assert.equal(headers.authorization, 'first')
    assert.equal(headers.cookie, 'u=1; v=2')
    assert.deepEqual(headers['set-cookie'], ['s=1', 't=2'])
    const pairs: string[] = []
    for (let i = 0; i < raw.length; i += 2) if (raw[i] !== 'user-agent' && raw[i] !== 'host') pairs.push(`${raw[i]}: ${raw[i + 1]}`)
    assert.deepEqual(pairs, ['x-list: a', 'x-list: b', 'authorization: first', 'authorization: second', 'cookie: u=1', 'cookie: v=2', 'set-cookie: s=1', 'set-cookie: t=2'])
    await app.close()
  })

  test(`${name}: the chain form joins array headers the same way`, async () => {
    const app = factory()
    app.get('/', async (request: any) => ({ list: request.headers['x-list'] }))
    const res = await app.inject().get('/').headers({ 'x-list': ['a', 'b'] })
    assert.deepEqual(res.json(), { list: 'a, b' })
    await app.close()
  })

  test(`${name}: cookies as a list of records, or records by name; a cookie whose path does not cover the URL is not sent`, async () => {
    const app = factory()
    app.get('/shop/cart', async (request: any) => ({ cookie: request.headers.cookie ?? null }))
    const list = await app.inject({
      url: '/shop/cart?x=1',
      headers: { cookie: 'given=0' },
      cookies: [{ name: 'a', value: 'one two' }, { name: 'b', value: '2', path: '/shop' }, { name: 'c', value: '3', path: '/shopping' }, { name: 'a', value: 'again' }]
    })
    assert.deepEqual(list.json(), { cookie: 'given=0; a=one%20two; b=2; a=again' })
    const byName = await app.inject({ url: '/shop/cart', cookies: { plain: 'p', scoped: { value: 's', path: '/shop/' }, elsewhere: { value: 'e', path: '/admin' } } })
    assert.deepEqual(byName.json(), { cookie: 'plain=p; scoped=s' })
    const none = await app.inject({ url: '/shop/cart', cookies: [{ name: 'x', value: '1', path: '/other' }] })
    assert.deepEqual(none.json(), { cookie: '' })
    await assert.rejects(app.inject({ url: '/shop/cart', cookies: [{ name: 'bad name', value: '1' }] }), { name: 'TypeError', message: 'cookie name is invalid: bad name' })
    const escaped = await app.inject({ url: '/shop/cart', cookies: { v: 'a;b' } })
    const byObjectUrl = await app.inject({ url: { pathname: '/shop/cart' }, cookies: [{ name: 'in', value: '1', path: '/shop' }, { name: 'out', value: '2', path: '/shop/cart/x' }] })
    assert.deepEqual(byObjectUrl.json(), { cookie: 'in=1' })
    assert.deepEqual(escaped.json(), { cookie: 'v=a%3Bb' })
    await app.close()
  })

  test(`${name}: a response to HEAD, a 204 and a 304 carry no body, as a real server sends none`, async () => {
    const app = factory({ exposeHeadRoutes: true })
    app.get('/page', async () => ({ some: 'body' }))
    app.get('/empty', async (_request: any, reply: any) => reply.code(204).send('ignored'))
    app.get('/cached', (_request: any, reply: any) => { reply.code(304).header('content-type', 'text/plain').send('stale copy') })
    app.get('/stream', (_request: any, reply: any) => { reply.code(304).header('content-type', 'text/plain').send(Readable.from(['a', 'b'])) })
    const head = await app.inject({ method: 'HEAD', url: '/page' })
    assert.equal(head.statusCode, 200)
    assert.equal(head.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(head.payload, '')
    for (const url of ['/empty', '/cached', '/stream']) {
      const res = await app.inject(url)
      assert.equal(res.payload, '', url)
    }
    const get = await app.inject('/page')
    assert.deepEqual(get.json(), { some: 'body' })
    await app.close()
  })

  test(`${name}: injected requests and responses say isLightMyRequest`, async () => {
    const app = factory()
    app.get('/', async (request: any, reply: any) => ({ request: request.raw.isLightMyRequest, reply: reply.raw.isLightMyRequest }))
    const res = await app.inject('/')
    assert.deepEqual(res.json(), { request: true, reply: true })
    await app.close()
  })
}

test('trellis (v4 line): inject keeps light-my-request 5 (Fastify 4.29\'s): array headers joined with a comma, one raw line', async () => {
  const app = v4()
  app.get('/', async (request: any) => ({ list: request.headers['x-list'], raw: request.raw.rawHeaders.slice(0, 2), flag: request.raw.isLightMyRequest ?? null }))
  const res = await app.inject({ url: '/', headers: { 'x-list': ['a', 'b'] } })
  assert.deepEqual(res.json(), { list: 'a,b', raw: ['x-list', 'a,b'], flag: null })
  await app.close()
})
