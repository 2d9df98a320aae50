import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

const forwarded = {
  host: 'app.example.com',
  'x-forwarded-for': '9.9.9.9, 8.8.8.8',
  'x-forwarded-host': 'evil.example',
  'x-forwarded-proto': 'https'
}

const echo = (app: any): void => {
  app.get('/', async (req: any) => ({ ip: req.ip, ips: req.ips, hostname: req.hostname, protocol: req.protocol }))
}

for (const [name, factory] of v5Targets) {
  test(`${name}: trustProxy as a hop count trusts no peer, forwarded headers are ignored`, async () => {
    const app = factory({ trustProxy: 1 })
    echo(app)
    const res = await app.inject({ url: '/', remoteAddress: '203.0.113.7', headers: forwarded })
    assert.deepEqual(res.json(), { ip: '203.0.113.7', ips: ['203.0.113.7'], hostname: 'app.example.com', protocol: 'http' })
    await app.close()
  })

  test(`${name}: trustProxy true still believes the forwarded headers`, async () => {
    const app = factory({ trustProxy: true })
    echo(app)
    const res = await app.inject({ url: '/', remoteAddress: '203.0.113.7', headers: forwarded })
    assert.deepEqual(res.json(), { ip: '9.9.9.9', ips: ['203.0.113.7', '8.8.8.8', '9.9.9.9'], hostname: 'evil.example', protocol: 'https' })
    await app.close()
  })
}

test('trellis (v4 line): trustProxy as a hop count trusts that many proxies, as Fastify 4', async () => {
  const app = v4({ trustProxy: 1 })
  echo(app)
  const res = await app.inject({ url: '/', remoteAddress: '203.0.113.7', headers: forwarded })
  assert.deepEqual(res.json(), { ip: '8.8.8.8', ips: ['203.0.113.7', '8.8.8.8'], hostname: 'evil.example', protocol: 'https' })
  await app.close()
})
