import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('header, getHeader, hasHeader, removeHeader, getHeaders are case-insensitive', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => {
    reply.header('X-One', '1').header('x-two', 2)
    const seen = {
      one: reply.getHeader('x-one'),
      two: reply.getHeader('X-TWO'),
      hasOne: reply.hasHeader('X-ONE'),
      hasMissing: reply.hasHeader('x-missing'),
      all: reply.getHeaders()
    }
    reply.removeHeader('X-Two')
    reply.send({ ...seen, hasTwoAfterRemove: reply.hasHeader('x-two') })
  })
  const res = await app.inject('/')
  const body = res.json()
  assert.equal(body.one, '1')
  assert.equal(body.two, 2)
  assert.equal(body.hasOne, true)
  assert.equal(body.hasMissing, false)
  assert.deepEqual(body.all, { 'x-one': '1', 'x-two': 2 })
  assert.equal(body.hasTwoAfterRemove, false)
  assert.equal(res.headers['x-one'], '1')
  assert.equal(res.headers['x-two'], undefined)
  await app.close()
})

test('headers(object) sets several headers', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.headers({ 'x-a': 'a', 'X-B': 'b' }).send('ok') })
  const res = await app.inject('/')
  assert.equal(res.headers['x-a'], 'a')
  assert.equal(res.headers['x-b'], 'b')
  await app.close()
})

test('set-cookie accumulates values', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.header('set-cookie', 'a=1').header('Set-Cookie', 'b=2').header('set-cookie', ['c=3']).send('ok') })
  const res = await app.inject('/')
  assert.deepEqual(res.headers['set-cookie'], ['a=1', 'b=2', 'c=3'])
  await app.close()
})

test('headers set on reply.raw are visible through getHeader/getHeaders/hasHeader', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => {
    reply.raw.setHeader('x-raw', 'r')
    reply.send({ get: reply.getHeader('x-raw'), has: reply.hasHeader('x-raw'), all: reply.getHeaders() })
  })
  const res = await app.inject('/')
  assert.deepEqual(res.json(), { get: 'r', has: true, all: { 'x-raw': 'r' } })
  assert.equal(res.headers['x-raw'], 'r')
  await app.close()
})

test('type() sets content-type; JSON types get a charset', async () => {
  const app = trellis()
  app.get('/html', (_req, reply) => { reply.type('text/html').send('<p>x</p>') })
  app.get('/json', (_req, reply) => { reply.type('application/vnd.api+json').send({ a: 1 }) })
  app.get('/charset', (_req, reply) => { reply.type('application/json; charset=latin1').send({ a: 1 }) })
  assert.equal((await app.inject('/html')).headers['content-type'], 'text/html')
  const json = await app.inject('/json')
  assert.equal(json.headers['content-type'], 'application/vnd.api+json; charset=utf-8')
  assert.equal(json.body, '{"a":1}')
  assert.equal((await app.inject('/charset')).headers['content-type'], 'application/json; charset=latin1')
  await app.close()
})

test('a wrong content-length set by the handler is corrected', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.header('content-length', '999').send('four') })
  const res = await app.inject('/')
  assert.equal(res.headers['content-length'], '4')
  assert.equal(res.body, 'four')
  await app.close()
})

test('invalid header value fails without crashing (500 JSON)', async () => {
  const app = trellis()
  app.get('/', (_req, reply) => { reply.header('x-bad', 'a\nb').send('x') })
  const res = await app.inject('/')
  assert.equal(res.statusCode, 500)
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(typeof res.json().message, 'string')
  await app.close()
})
