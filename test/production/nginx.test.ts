/**
 * Behind Debian's nginx (started here on loopback ports; skipped with a message when nginx is not
 * installed): two trellis instances as the upstream; with --trust-proxy the client's address,
 * protocol and host come from X-Forwarded-*, request.id from nginx's X-Request-Id; a rolling
 * restart (SIGTERM one instance, start its replacement, then the other) under load loses no request.
 */
import { describe, test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { APP_CJS } from './fixtures'
import { runTrellis, stop, request, tempApp, freePort, findBinary, listeningLine, type Running, type Answer } from './helpers'
import { startNginx, type Nginx } from './nginx'

const NGINX = findBinary('nginx')
const skip = NGINX === undefined ? 'nginx is not installed (Debian package: nginx); these tests start their own on loopback ports' : false

describe('behind nginx', { skip, concurrency: false }, () => {
  let dir = ''
  let ports: number[] = []
  const instances: Running[] = []
  let proxy: Nginx | undefined

  const startInstance = async (port: number): Promise<Running> => {
    const run = runTrellis(['start', '-a', '127.0.0.1', '-p', String(port), '--trust-proxy', '127.0.0.1',
      '--request-id-header', 'x-request-id', '--close-timeout', '5000', 'app.cjs'], { cwd: dir })
    instances.push(run)
    await run.waitFor(listeningLine)
    return run
  }

  before(async () => {
    dir = tempApp({ 'app.cjs': APP_CJS })
    ports = [await freePort(), await freePort()]
    await Promise.all(ports.map(startInstance))
    proxy = await startNginx(NGINX as string, await freePort(), ports)
  })
  after(async () => {
    await proxy?.stop()
    for (const run of instances) await stop(run)
  })

  test('--trust-proxy: client address, protocol and host from X-Forwarded-*; request.id from the proxy', async () => {
    const proxied = proxy as Nginx
    // the client connects from 127.0.0.2, nginx (the only trusted hop) from 127.0.0.1
    const answer = await request(proxied.port, '/whoami', { localAddress: '127.0.0.2', headers: { host: 'shop.example', 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' } })
    assert.equal(answer.status, 200)
    const who = JSON.parse(answer.body)
    assert.equal(who.ip, '127.0.0.2', 'the address nginx saw; the client\'s own X-Forwarded-For is not trusted past nginx')
    assert.deepEqual(who.ips, ['127.0.0.1', '127.0.0.2'])
    assert.equal(who.protocol, 'https', 'as set by the (pretend) TLS terminator in front of nginx')
    assert.equal(who.hostname, 'shop.example', 'nginx sends Host: trellis (the upstream name); the client\'s host is in X-Forwarded-Host')
    assert.match(who.id, /^[0-9a-f]{32}$/, 'nginx\'s $request_id')
    assert.equal(who.id, answer.headers['x-request-id'], 'the id nginx also returned to the client')

    const plain = JSON.parse((await request(proxied.port, '/whoami', { headers: { host: 'shop.example' } })).body)
    assert.equal(plain.protocol, 'http')
    assert.equal(plain.ip, '127.0.0.1')
    // without the proxy: the peer is the client and its forwarded headers are ignored
    const direct = JSON.parse((await request(ports[0], '/whoami', { localAddress: '127.0.0.2', headers: { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' } })).body)
    assert.equal(direct.ip, '127.0.0.2')
    assert.equal(direct.protocol, 'http')
  })

  test('both instances take requests through nginx', async () => {
    const pids = new Set<number>()
    for (let i = 0; i < 20 && pids.size < 2; i++) pids.add(JSON.parse((await request((proxy as Nginx).port, '/pid')).body).pid)
    assert.equal(pids.size, 2)
  })

  test('a rolling restart under load loses no request', async () => {
    const proxied = proxy as Nginx
    const agent = new http.Agent({ keepAlive: true, maxSockets: 8 })
    const statuses = new Map<number, number>()
    const failures: string[] = []
    let running = true
    let sent = 0
    const servedBy = new Set<number>()
    const client = async (): Promise<void> => {
      while (running && sent < 20000) {
        sent++
        let answer: Answer
        try { answer = await request(proxied.port, '/slow?ms=15', { agent }) } catch (err) { failures.push(String(err)); continue }
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1)
        if (answer.status === 200) servedBy.add(JSON.parse(answer.body).pid)
        else failures.push(`${answer.status} ${answer.body}`)
      }
    }
    const clients = Array.from({ length: 8 }, client)
    try {
      for (const i of [0, 1]) {
        const old = instances.find((r) => r.child.exitCode === null && r.child.signalCode === null && r.child.spawnargs.includes(String(ports[i]))) as Running
        old.child.kill('SIGTERM')
        assert.equal((await old.exited).code, 0, 'the old instance closed cleanly')
        await startInstance(ports[i])
        await new Promise((resolve) => setTimeout(resolve, 300))
      }
    } finally {
      running = false
      await Promise.all(clients)
      agent.destroy()
    }
    assert.deepEqual(failures, [], 'every request answered 200')
    const ok = statuses.get(200) ?? 0
    assert.ok(ok >= 50, `a real load went through (${ok} requests)`)
    assert.ok(servedBy.size >= 3, 'old and new instances served')
  })
})
