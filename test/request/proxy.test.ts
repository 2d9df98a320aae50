import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

function echoApp (opts: Record<string, unknown>) {
  const app = trellis(opts)
  app.get('/', async (req) => ({ ip: req.ip, ips: req.ips ?? null, hostname: req.hostname, protocol: req.protocol }))
  return app
}

const forwarded = { 'x-forwarded-for': '1.1.1.1, 2.2.2.2', 'x-forwarded-host': 'example.com', 'x-forwarded-proto': 'https' }

test('without trustProxy X-Forwarded-* headers are ignored', async () => {
  const app = echoApp({})
  const { port } = await listen(app)
  try {
    const res = await request(port, { headers: { ...forwarded } })
    const body = JSON.parse(res.body)
    assert.equal(body.ip, '127.0.0.1')
    assert.equal(body.ips, null)
    assert.equal(body.hostname, `127.0.0.1:${port}`)
    assert.equal(body.protocol, 'http')
  } finally { await app.close() }
})

test('trustProxy: true uses the forwarded client address, host and protocol', async () => {
  const app = echoApp({ trustProxy: true })
  const { port } = await listen(app)
  try {
    const res = await request(port, { headers: { ...forwarded } })
    const body = JSON.parse(res.body)
    assert.equal(body.ip, '1.1.1.1')
    assert.deepEqual(body.ips, ['127.0.0.1', '2.2.2.2', '1.1.1.1'])
    assert.equal(body.hostname, 'example.com')
    assert.equal(body.protocol, 'https')
  } finally { await app.close() }
})

test('trustProxy: a hop count trusts only that many proxies', async () => {
  const app = echoApp({ trustProxy: 1 })
  const { port } = await listen(app)
  try {
    const body = JSON.parse((await request(port, { headers: { ...forwarded } })).body)
    assert.equal(body.ip, '2.2.2.2')
    assert.deepEqual(body.ips, ['127.0.0.1', '2.2.2.2'])
  } finally { await app.close() }
})

test('trustProxy: an address list (string and array) trusts matching proxies only', async () => {
  for (const trust of ['127.0.0.1', ['127.0.0.1', '2.2.2.2'], '127.0.0.1,2.2.2.2']) {
    const app = echoApp({ trustProxy: trust })
    const { port } = await listen(app)
    try {
      const body = JSON.parse((await request(port, { headers: { ...forwarded } })).body)
      assert.equal(body.ip, trust === '127.0.0.1' ? '2.2.2.2' : '1.1.1.1', JSON.stringify(trust))
      assert.equal(body.hostname, 'example.com')
    } finally { await app.close() }
  }
})

test('trustProxy: an address list that does not match the socket ignores forwarded headers', async () => {
  const app = echoApp({ trustProxy: '10.0.0.1' })
  const { port } = await listen(app)
  try {
    const body = JSON.parse((await request(port, { headers: { ...forwarded } })).body)
    assert.equal(body.ip, '127.0.0.1')
    assert.equal(body.hostname, `127.0.0.1:${port}`)
    assert.equal(body.protocol, 'http')
  } finally { await app.close() }
})

test('trustProxy: a function decides per address and hop', async () => {
  const app = echoApp({ trustProxy: (address: string, hop: number) => address === '127.0.0.1' || hop < 1 })
  const { port } = await listen(app)
  try {
    const body = JSON.parse((await request(port, { headers: { ...forwarded } })).body)
    assert.equal(body.ip, '2.2.2.2')
  } finally { await app.close() }
})

test('trustProxy: the last X-Forwarded-Proto/Host value wins', async () => {
  const app = echoApp({ trustProxy: true })
  const { port } = await listen(app)
  try {
    const body = JSON.parse((await request(port, { headers: { 'x-forwarded-proto': 'http, https', 'x-forwarded-host': 'a.com, b.com' } })).body)
    assert.equal(body.protocol, 'https')
    assert.equal(body.hostname, 'b.com')
  } finally { await app.close() }
})
