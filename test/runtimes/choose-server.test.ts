// Which server listen() starts (transport/runtime-server.ts chooseServer), decided on Node for
// each runtime: the runtimeServer option, what makes an application need node:http, and the one
// log line. Serving itself is tested under the runtimes by ./bun-deno.test.ts.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import trellis from '../../src/index'
import { resolveOptions } from '../../src/instance/options'
import { chooseServer, currentRuntime } from '../../src/transport/runtime-server'
import { nodeHttpPlugin } from '../../src/transport/node-http-plugins'

const options = (opts: object = {}): any => resolveOptions(opts as never, 4)

test('on Node, node:http serves and nothing is said', () => {
  assert.equal(currentRuntime(), 'node')
  assert.deepEqual(chooseServer('node', options({ runtimeServer: 'native' }), {}, http.createServer()), { native: false, line: '' })
})

test("runtimeServer 'auto' (the default): the runtime's own server, unless the application needs node:http", () => {
  assert.deepEqual(chooseServer('bun', options(), {}, http.createServer()), { native: true, line: "Serving with Bun.serve (runtimeServer: 'auto'; 'node' serves with Bun's node:http)" })
  assert.deepEqual(chooseServer('deno', options(), {}, http.createServer()), { native: true, line: "Serving with Deno.serve (runtimeServer: 'auto'; 'node' serves with Deno's node:http)" })
  const upgrading = http.createServer()
  upgrading.on('upgrade', () => {})
  assert.deepEqual(chooseServer('bun', options(), {}, upgrading), { native: false, line: "Serving with Bun's node:http: app.server has 'upgrade' listeners (runtimeServer: 'auto'; 'native' serves with Bun.serve)" })
  assert.equal(chooseServer('deno', options({ http2: true }), {}, http.createServer()).native, false)
  assert.equal(chooseServer('deno', options({ https: { key: 'k', cert: 'c' } }), {}, http.createServer()).native, false)
  assert.equal(chooseServer('bun', options({ serverFactory: () => http.createServer() }), {}, http.createServer()).native, false)
  assert.match(chooseServer('bun', options(), { path: '/tmp/x.sock' }, http.createServer()).line, /^Serving with Bun's node:http: a socket path/)
})

test("runtimeServer 'node' and 'native' choose; 'native' says what it leaves unused", () => {
  assert.deepEqual(chooseServer('deno', options({ runtimeServer: 'node' }), {}, http.createServer()), { native: false, line: "Serving with Deno's node:http (runtimeServer: 'node')" })
  const upgrading = http.createServer()
  upgrading.on('upgrade', () => {})
  assert.deepEqual(chooseServer('bun', options({ runtimeServer: 'native' }), {}, upgrading), { native: true, line: "Serving with Bun.serve (runtimeServer: 'native'); node:http only: app.server has 'upgrade' listeners, not used" })
})

test('runtimeServer takes auto, native or node', () => {
  assert.throws(() => trellis({ runtimeServer: 'bun' } as never), /"runtimeServer" must be one of auto, native, node, got "bun"/)
})

test("a plugin that needs node:http's objects (@fastify/express) makes 'auto' choose node:http and is named", () => {
  const plugin = nodeHttpPlugin(['@fastify/cors', '@fastify/express'])
  assert.equal(plugin?.name, '@fastify/express')
  assert.equal(nodeHttpPlugin(['@fastify/cors', '@fastify/middie']), null)
  assert.deepEqual(chooseServer('deno', options(), {}, http.createServer(), plugin), { native: false, line: "Serving with Deno's node:http: @fastify/express needs node:http's own objects (runtimeServer: 'auto'; 'native' serves with Deno.serve)" })
})

test("app.fetch refuses an application with a plugin that needs node:http's objects, naming it; inject and listen serve it", async () => {
  const app = trellis()
  // a plugin registered under @fastify/express's name, in an encapsulated scope
  const express = Object.assign(async (instance: any) => { instance.get('/in-scope', async () => ({ ok: true })) }, { [Symbol.for('plugin-meta')]: { name: '@fastify/express' } })
  app.register(async (scope: any) => { await scope.register(express) })
  for (let i = 0; i < 2; i++) {
    await assert.rejects(app.fetch(new Request('http://app.test/in-scope')), (err: any) => {
      assert.equal(err.code, 'TRL_ERR_FETCH_UNAVAILABLE')
      assert.match(err.message, /^app\.fetch\(\) cannot serve this application: @fastify\/express needs node:http's own objects \(it sets reply\.raw's prototype/)
      return true
    })
  }
  const res = await app.inject({ method: 'GET', url: '/in-scope' })
  assert.equal(res.statusCode, 200)
  assert.deepEqual(res.json(), { ok: true })
  await app.close()
  const plain = trellis()
  plain.get('/', async () => ({ ok: true }))
  assert.equal((await plain.fetch(new Request('http://app.test/'))).status, 200)
  await plain.close()
})
