/**
 * CVE-2026-3635 (GHSA-444r-cwp2-x5xf): `request.protocol` and `request.host` read
 * `X-Forwarded-Proto` / `X-Forwarded-Host` from any connection once `trustProxy` was set, even one
 * from an address the trust function refuses. Each case connects directly (from 127.0.0.1) and
 * spoofs the headers; only a trustProxy that trusts 127.0.0.1 may let them through.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { once } from 'node:events'
import trellis from '../../src/index'
import { listen, rawRequest, parseRaw } from '../helpers'

interface Seen { ip: string, ips: string[] | null, hostname: string, protocol: string }

const SPOOF = {
  'X-Forwarded-For': '198.51.100.7',
  'X-Forwarded-Host': 'evil.example',
  'X-Forwarded-Proto': 'https'
}

async function seenWith (trustProxy: unknown, headers: Record<string, string>): Promise<Seen> {
  const app = trellis(trustProxy === undefined ? {} : { trustProxy: trustProxy as never })
  app.get('/who', async (req) => ({ ip: req.ip, ips: req.ips ?? null, hostname: req.hostname, protocol: req.protocol }))
  const { port } = await listen(app)
  try {
    let raw = 'GET /who HTTP/1.1\r\nHost: app.example\r\nConnection: close\r\n'
    for (const [name, value] of Object.entries(headers)) raw += `${name}: ${value}\r\n`
    const answer = parseRaw(await rawRequest(port, raw + '\r\n'))
    assert.equal(answer.statusCode, 200)
    return JSON.parse(answer.body) as Seen
  } finally {
    await app.close()
  }
}

const notSpoofed = (seen: Seen): void => {
  assert.equal(seen.ip, '127.0.0.1')
  assert.equal(seen.hostname, 'app.example')
  assert.equal(seen.protocol, 'http')
}

describe('CVE-2026-3635 (GHSA-444r-cwp2-x5xf): X-Forwarded-* from a connection that is not a trusted proxy', () => {
  it('without trustProxy: address, host and protocol are the connection\'s own', async () => {
    const seen = await seenWith(undefined, SPOOF)
    notSpoofed(seen)
    assert.equal(seen.ips, null)
  })

  it('trustProxy: false is the same', async () => {
    notSpoofed(await seenWith(false, SPOOF))
  })

  for (const [name, trust] of [
    ['one proxy address that is not the peer (\'10.0.0.1\')', '10.0.0.1'],
    ['a comma-separated list (\'10.0.0.1, 192.168.0.0/16\')', '10.0.0.1, 192.168.0.0/16'],
    ['an array of subnets', ['10.0.0.0/8', '172.16.0.0/12']],
    ['a trust function that validates the address', (address: string) => address === '10.0.0.1']
  ] as Array<[string, unknown]>) {
    it(`trustProxy ${name}: the spoofed host and protocol are ignored, and so is the address`, async () => {
      const seen = await seenWith(trust, SPOOF)
      notSpoofed(seen)
      assert.deepEqual(seen.ips, ['127.0.0.1'])
    })
  }

  it('Forwarded (RFC 7239) is never read, trusted peer or not', async () => {
    notSpoofed(await seenWith('10.0.0.1', { Forwarded: 'for=198.51.100.7;host=evil.example;proto=https' }))
    const trusted = await seenWith('127.0.0.1', { Forwarded: 'for=198.51.100.7;host=evil.example;proto=https' })
    notSpoofed(trusted)
  })
})

describe('X-Forwarded-* read after the client has gone (Fastify 5.9.0 guards a missing socket address)', () => {
  // a closed socket has no remoteAddress: the trust check must not fall back to "trusted"
  for (const trust of ['10.0.0.1', '127.0.0.1']) {
    it(`trustProxy '${trust}': host and protocol read after the client closed are not the spoofed ones`, async () => {
      const app = trellis({ trustProxy: trust })
      let seen: { hostname: string | undefined, protocol: string | undefined, address: string | undefined } | undefined
      let done: () => void = () => {}
      const finished = new Promise<void>((resolve) => { done = resolve })
      app.get('/late', async (req) => {
        const socket = req.raw.socket
        if (!socket.destroyed) await once(socket, 'close')
        seen = { hostname: req.hostname, protocol: req.protocol, address: socket.remoteAddress }
        done()
        return 'late'
      })
      const { port } = await listen(app)
      try {
        const client = net.connect(port, '127.0.0.1')
        await once(client, 'connect')
        client.end('GET /late HTTP/1.1\r\nHost: app.example\r\nX-Forwarded-Host: evil.example\r\nX-Forwarded-Proto: https\r\n\r\n')
        client.destroy()
        await finished
        assert.equal(seen?.address, undefined, 'the socket has no address any more')
        assert.equal(seen?.hostname, 'app.example')
        assert.equal(seen?.protocol, 'http')
      } finally {
        await app.close()
      }
    })
  }
})

describe('X-Forwarded-* from a trusted proxy (the controls: the headers do arrive)', () => {
  it('trustProxy \'127.0.0.1\' (the peer is the proxy): address, host and protocol come from the headers', async () => {
    const seen = await seenWith('127.0.0.1', SPOOF)
    assert.deepEqual(seen, { ip: '198.51.100.7', ips: ['127.0.0.1', '198.51.100.7'], hostname: 'evil.example', protocol: 'https' })
  })

  it('trustProxy: true trusts every hop (documented: only behind a proxy that overwrites the headers)', async () => {
    const seen = await seenWith(true, SPOOF)
    assert.equal(seen.ip, '198.51.100.7')
    assert.equal(seen.hostname, 'evil.example')
    assert.equal(seen.protocol, 'https')
  })

  it('a trusted proxy that appends: the client\'s own X-Forwarded-For entries stay untrusted', async () => {
    // the client sent "X-Forwarded-For: 10.9.9.9", the proxy (127.0.0.1) appended the client's address
    const seen = await seenWith('127.0.0.1', { 'X-Forwarded-For': '10.9.9.9, 203.0.113.5' })
    assert.equal(seen.ip, '203.0.113.5')
    assert.deepEqual(seen.ips, ['127.0.0.1', '203.0.113.5'])
  })

  it('a trusted proxy that appends: the last X-Forwarded-Host / -Proto value is the proxy\'s', async () => {
    const seen = await seenWith('127.0.0.1', { 'X-Forwarded-Host': 'evil.example, app.example', 'X-Forwarded-Proto': 'http, https' })
    assert.equal(seen.hostname, 'app.example')
    assert.equal(seen.protocol, 'https')
  })

  it('trustProxy as a hop count (Fastify 4\'s meaning): one hop is trusted, whoever sends it', async () => {
    // a hop count cannot tell a proxy from a client that connects directly: the nearest hop's
    // headers are believed (docs/security.md says to prefer addresses); hops beyond the count are not
    const seen = await seenWith(1, { 'X-Forwarded-For': '10.9.9.9, 203.0.113.5' })
    assert.equal(seen.ip, '203.0.113.5')
    assert.deepEqual(seen.ips, ['127.0.0.1', '203.0.113.5'])
  })
})
