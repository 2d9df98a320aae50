// The Bun, Deno and Workers cells of docs/runtimes.md's plugin table. One application
// (./fixtures/plugins/routes.mjs: the @fastify plugins that need no disk, no sockets of their own
// and no upgrade), on each Fastify line with that line's plugin majors (plugins-app.mjs,
// plugins-app-v5.mjs), is served three ways and the same checks (./plugin-checks.ts) run over
// HTTP against each: by workerd, built with `trellis build --target worker` (the built dist/ CLI);
// by Bun and by Deno natively (./fixtures/plugins/serve.mjs: listen() on Bun.serve / Deno.serve);
// and, as the reference the checks are held to, by Node through app.fetch in this process.
// Beside it, with the Fastify 4 majors:
// - session-app.mjs (@fastify/session, @fastify/flash; also with the Fastify 5 majors): on Bun,
//   Deno and app.fetch its routes answer; a Worker with it does not start (workerd forbids random
//   values at global scope), which a short workerd run of its own shows;
// - refused-app.mjs (the plugins the worker build refuses: files, native addons, outbound sockets)
//   on Bun, Deno and app.fetch, http-proxy and reply-from against an upstream this file starts on
//   loopback, redis against a redis-server it starts (skipped, naming it, where none is installed);
// - node-path-app.mjs (early-hints, express: they need node:http's own objects) on Bun's and Deno's
//   node:http (`runtimeServer: 'node'`); express through app.fetch, which refuses it, in a Node
//   process of its own (a failure escaping the request would end that process);
// - pressure-app.mjs (@fastify/under-pressure): on Bun and Deno its status route answers; on
//   workerd, another service of the same process, the Worker fails at its first request (workerd
//   has no perf_hooks.monitorEventLoopDelay).
// @fastify/oauth2's callback exchanges the code at the token endpoint of an OAuth2 provider this
// file starts on loopback (oauth2Provider, below), with the plugin's own HTTP client (simple-oauth2
// on @hapi/wreck, on node:http's client): every server of the table is given its address (an option
// in this process, CELLS_OAUTH2_PROVIDER for Bun and Deno, a text binding for workerd, which fills
// process.env from it, with an outbound service allowed to reach loopback).
// The plugins that cannot exist on Workers (./fixtures/plugins/unavailable-app.mjs) fail the worker
// build, which names for each the Node built-in it imports. One workerd, one Bun and one Deno
// process for the whole table, each stopped by its PID. The binaries are the npm packages `bun`,
// `deno`, `workerd` (./install.mjs, on first use, into a cache outside the repository); a runtime
// that cannot be installed or run here is skipped, naming its package.
// node-line: independent: the verdicts are workerd's, Bun's and Deno's; the worker build on each
// Node line is test/cli/build-worker.test.ts's.
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'
import { NODE_PATH_CHECKS, OAUTH2_CLIENT, OAUTH2_REDIRECT_URI, PLUGIN_CHECKS, REFUSED_CHECKS, type Send } from './plugin-checks'
import { freePort, startProcess, type Started } from './processes'
import { findBinary } from '../production/helpers'
import { startRedis, type RedisServer } from '../production/redis'
import { runChild, type ChildResult } from '../run-child'
import { envWithoutCoverage } from '../run-tsc'

const root = join(__dirname, '..', '..')
const BIN = join(root, 'dist', 'bin', 'trellis.js')
const FIXTURES = 'test/runtimes/fixtures/plugins'
// the first run installs the runtimes' packages (about 250 MB from npm)
const INSTALL_AND_RUN_MS = 300_000
/** The application of each Fastify line. */
const APPS = [[4, 'plugins-app.mjs'], [5, 'plugins-app-v5.mjs']] as const

const REDIS = findBinary('redis-server')
const NO_REDIS = 'redis-server is not installed (Debian package: redis-server); the redis cell starts its own on a loopback port'

// what ./fixtures/plugins/refused-app.mjs reaches over loopback, for every server of the table: an
// upstream for http-proxy and reply-from (it answers with the method, path and body it was sent),
// and a redis-server (where one is installed), each stopped when the file's tests end
let upstream: Server | undefined
let redis: RedisServer | undefined
let provider: Server | undefined
const needs = { upstream: '', redis: undefined as string | undefined, oauth2Provider: '' }

/**
 * An OAuth2 provider's token endpoint (RFC 6749, 4.1.3), as ./fixtures/plugins/routes.mjs configures
 * @fastify/oauth2 to use it: a POST of a form with the authorization-code grant, the callback URI
 * the authorization request named and the client's credentials in HTTP Basic. For a code it issued
 * (`granted-<id>`) it answers a bearer token made from the code; anything else it refuses with the
 * error of RFC 6749, 5.2 (a 400, or a 401 for the wrong client).
 */
function oauth2Provider (): Server {
  return createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => { body += chunk })
    req.on('end', () => {
      const answer = (status: number, json: object): void => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' })
        res.end(JSON.stringify(json))
      }
      const form = new URLSearchParams(body)
      const client = Buffer.from(OAUTH2_CLIENT.id + ':' + OAUTH2_CLIENT.secret).toString('base64')
      if (req.method !== 'POST' || req.url !== '/token') return answer(404, { error: 'not_found' })
      if (!(req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return answer(400, { error: 'invalid_request', error_description: 'not a form' })
      if (req.headers.authorization !== `Basic ${client}`) return answer(401, { error: 'invalid_client' })
      if (form.get('grant_type') !== 'authorization_code') return answer(400, { error: 'unsupported_grant_type' })
      if (form.get('redirect_uri') !== OAUTH2_REDIRECT_URI) return answer(400, { error: 'invalid_grant', error_description: `redirect_uri ${String(form.get('redirect_uri'))}` })
      const code = /^granted-(\w+)$/.exec(form.get('code') ?? '')
      if (code === null) return answer(400, { error: 'invalid_grant', error_description: 'unknown code' })
      answer(200, { access_token: `token-${code[1]}`, token_type: 'Bearer', expires_in: 3600, scope: 'read' })
    })
  })
}

async function listenOnLoopback (server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

before(async () => {
  upstream = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => { body += chunk })
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' })
      res.end(JSON.stringify({ method: req.method, path: req.url, body }))
    })
  })
  needs.upstream = await listenOnLoopback(upstream)
  provider = oauth2Provider()
  needs.oauth2Provider = await listenOnLoopback(provider)
  if (REDIS !== undefined) {
    redis = await startRedis(REDIS, await freePort())
    needs.redis = `redis://127.0.0.1:${redis.port}`
  }
})
after(async () => {
  await new Promise((resolve) => upstream?.close(resolve))
  await new Promise((resolve) => provider?.close(resolve))
  await redis?.stop()
})

async function binaryOrSkip (t: { skip: (message: string) => void }, name: 'bun' | 'deno' | 'workerd'): Promise<string | undefined> {
  assert.ok(existsSync(BIN), 'dist/ is missing: run `npm run build` first (npm test builds before testing)')
  const { runtimeBinary } = await import('./install.mjs')
  const found = runtimeBinary(name)
  if (found.bin === undefined) { t.skip(found.reason); return undefined }
  return found.bin
}

type Child = Started

function start (bin: string, args: string[], cwd: string): Child {
  return startProcess(bin, args, { cwd, env: { ...process.env, NO_COLOR: '1', CELLS_UPSTREAM: needs.upstream, CELLS_REDIS: needs.redis ?? '', CELLS_OAUTH2_PROVIDER: needs.oauth2Provider } })
}

/** A check of the refused plugins, skipped with a message where what it needs is missing. */
async function runRefused (t: any, where: string, base: string, send: Send): Promise<void> {
  for (const check of REFUSED_CHECKS.filter((c) => c.notOn !== where)) {
    const skip = check.needs === 'redis' && needs.redis === undefined ? NO_REDIS : false
    await t.test(`${check.plugin} on ${where} (Fastify 4 line)`, { skip }, () => check.run(base, send, 4))
  }
}

async function until<T> (what: string, served: Child, probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const found = await probe().catch(() => undefined)
    if (found !== undefined) return found
    if (served.child.exitCode !== null) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${what}:\n${served.output().slice(-3000)}`)
}

// the built command (dist/, which c8 does not map: off coverage), awaited: the test process goes on
// with other files' tests while it builds
function buildWorker (app: string, out: string, ...flags: string[]): Promise<ChildResult> {
  return runChild(process.execPath, [BIN, 'build', '--target', 'worker', app, '--out', out, ...flags], { cwd: root, env: { ...envWithoutCoverage(), NODE_OPTIONS: '' }, timeout: 120_000 })
}

test('workerd: the plugins of docs/runtimes.md\'s table, built by trellis build --target worker (both lines)', { timeout: INSTALL_AND_RUN_MS }, async (t) => {
  const workerd = await binaryOrSkip(t, 'workerd')
  if (workerd === undefined) return
  const out = mkdtempSync(join(tmpdir(), 'trellis-worker-cells-'))
  try {
    // one workerd process, a service (a Worker on a port of its own) for each application
    const services = [
      { name: 'plugins4', app: 'plugins-app.mjs', line: 4 as const, port: await freePort() },
      { name: 'plugins5', app: 'plugins-app-v5.mjs', line: 5 as const, port: await freePort() },
      { name: 'pressure', app: 'pressure-app.mjs', line: 4 as const, port: await freePort() }
    ]
    // a Worker with @fastify/session does not start (below): built, and run alone afterwards
    for (const { name, app, line } of [...services, { name: 'session', app: 'session-app.mjs', line: 4 }]) {
      const made = await buildWorker(`${FIXTURES}/${app}`, join(out, name), '--line', String(line))
      assert.equal(made.status, 0, `trellis build --target worker ${app} failed:\n${made.stdout}\n${made.stderr}`)
    }
    const date = /compatibilityDate = "([\d-]+)"/.exec(readFileSync(join(out, 'plugins4', 'workerd.capnp'), 'utf8'))?.[1]
    assert.ok(date !== undefined, 'the build wrote a compatibility date')
    // the Workers' outbound requests go to a network service that reaches loopback (workerd's
    // default, "internet", allows public addresses only: 'connecting to 127.0.0.1:… is not
    // allowed'), and the provider's address is a text binding, which workerd puts in process.env
    writeFileSync(join(out, 'cells.capnp'), [
      'using Workerd = import "/workerd/workerd.capnp";',
      'const config :Workerd.Config = (',
      `  services = [ ${services.map(({ name }) => `(name = "${name}", worker = .${name})`).join(', ')}, (name = "loopback", network = (allow = ["local"])) ],`,
      `  sockets = [ ${services.map(({ name, port }) => `(name = "${name}", address = "127.0.0.1:${port}", http = (), service = "${name}")`).join(', ')} ]`,
      ');',
      ...services.map(({ name }) => `const ${name} :Workerd.Worker = (modules = [ (name = "worker.mjs", esModule = embed "${name}/worker.mjs") ], compatibilityDate = "${date}", compatibilityFlags = ["nodejs_compat"], bindings = [ (name = "CELLS_OAUTH2_PROVIDER", text = "${needs.oauth2Provider}") ], globalOutbound = "loopback");`),
      ''
    ].join('\n'))
    const served = start(workerd, ['serve', join(out, 'cells.capnp')], out)
    try {
      for (const { name, line, port } of services.slice(0, 2)) {
        const base = `http://127.0.0.1:${port}`
        await until(`workerd did not serve ${name} on ${port}`, served, async () => (await fetch(`${base}/nothing-here`)).status === 404 ? true : undefined)
        // the Fastify 5 major of rate-limit is refused by the build (below); session and schedule: below
        for (const check of PLUGIN_CHECKS.filter((c) => (line === 4 || c.plugin !== 'rate-limit') && c.plugin !== 'session, flash' && c.plugin !== 'schedule')) {
          await t.test(`${check.plugin} on workerd (Fastify ${line} line)`, () => check.run(base, fetch, line))
        }
        await t.test(`schedule on workerd (Fastify ${line} line): not available, the job is added but never runs`, async () => {
          // its interval was set while the first request readied the application; workerd runs no
          // timer of a request that has ended, so the job does not run while a later request waits
          const res = await fetch(`${base}/schedule/`)
          const { before, after, status } = await res.json() as { before: number, after: number, status: string }
          assert.deepEqual({ before, after, status }, { before: 0, after: 0, status: 'running' })
        })
      }
      await t.test('request.ip on workerd: the cf-connecting-ip header; rate-limit\'s default key tells addresses apart', async () => {
        const base = `http://127.0.0.1:${services[0].port}`
        assert.deepEqual(await (await fetch(`${base}/ip`, { headers: { 'cf-connecting-ip': '2001:db8::5' } })).json(), { ip: '2001:db8::5' })
        assert.deepEqual(await (await fetch(`${base}/ip`)).json(), { ip: null })
        // the rate-limit check used up 203.0.113.7's two requests; another address has its own
        const other = await fetch(`${base}/limit/`, { headers: { 'cf-connecting-ip': '198.51.100.1' } })
        assert.deepEqual([other.status, await other.json()], [200, { limited: false }])
        const first = await fetch(`${base}/limit/`, { headers: { 'cf-connecting-ip': '203.0.113.7' } })
        assert.equal(first.status, 429)
        await first.text()
      })
      const pressurePort = services[2].port
      await t.test('under-pressure on workerd: not available, the first request fails (no perf_hooks.monitorEventLoopDelay)', async () => {
        const res = await fetch(`http://127.0.0.1:${pressurePort}/pressure/status`)
        assert.equal(res.status, 500)
        await res.text()
        await until('workerd did not report the missing monitorEventLoopDelay', served, async () => /The monitorEventLoopDelay method is not implemented/.test(served.output()) ? true : undefined)
      })
      assert.doesNotMatch(served.output(), /EvalError|Code generation/, 'the Worker compiled nothing from a string')
    } finally {
      await served.stop()
    }
    // workerd runs the module when it loads the Worker, and gives up on the whole configuration when
    // that throws: a second, short run of its own (it exits at once)
    await t.test('session, flash on workerd: not available, the Worker cannot start (@fastify/session draws random bytes at global scope)', async () => {
      const ran = await runChild(workerd, ['serve', join(out, 'session', 'workerd.capnp'), '--socket-addr', `http=127.0.0.1:${await freePort()}`], { cwd: out, timeout: 30_000 })
      assert.equal(ran.status, 1, `workerd served it:\n${ran.stderr}`)
      assert.match(ran.stderr, /Uncaught Error: Disallowed operation called within global scope[^\n]*generating random values[\s\S]*?in \S*node_modules\/@fastify\/session\/lib\/idGenerator\.js/)
    })
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})

test('the worker build refuses the plugins that need a disk, sockets or HTTP/2, naming the import', { timeout: INSTALL_AND_RUN_MS }, async () => {
  assert.ok(existsSync(BIN), 'dist/ is missing: run `npm run build` first (npm test builds before testing)')
  const out = mkdtempSync(join(tmpdir(), 'trellis-worker-cells-'))
  try {
    const made = await buildWorker(`${FIXTURES}/unavailable-app.mjs`, join(out, 'refused'))
    assert.notEqual(made.status, 0, 'the build refused the application')
    const said = made.stderr
    assert.match(said, /^trellis: the application cannot run on Cloudflare Workers:\n/)
    assert.ok(!existsSync(join(out, 'refused', 'worker.mjs')), 'no Worker was written')
    // each plugin with the built-in it (or a module it imports) needs
    const refused: Record<string, string> = {
      autoload: 'fs', // reads its folder at start
      compress: 'fs', // through pump
      env: 'fs', // dotenv reads .env
      express: 'fs|net', // express serves files (send) and reads addresses
      'http-proxy': 'http2|net|tls', // through reply-from (undici) and ws
      multipart: 'fs', // saves files to a temporary folder
      redis: 'net|tls', // through ioredis
      'reply-from': 'http2|net', // undici's outbound sockets
      'secure-session': 'fs', // sodium-native loads its native addon from disk
      static: 'fs',
      swagger: 'fs', // its static mode and the package.json it reads
      'swagger-ui': 'fs', // serves its assets from its folder
      view: 'fs', // reads its templates
      websocket: 'net|tls' // through ws
    }
    for (const [plugin, modules] of Object.entries(refused)) {
      assert.match(said, new RegExp(`unavailable-app\\.mjs -> \\S*node_modules/@fastify/${plugin}/index\\.js\\b[^\\n]* imports node:(${modules})(/promises)? \\(Cloudflare Workers have `), `@fastify/${plugin} named:\n${said}`)
    }
    // the Fastify 5 major of rate-limit imports node:net (for isIPv6); its Fastify 4 major does not
    const v5 = await buildWorker(`${FIXTURES}/rate-limit-v5-app.mjs`, join(out, 'refused-v5'), '--line', '5')
    assert.notEqual(v5.status, 0, 'the build refused fastify5-rate-limit')
    assert.match(v5.stderr, /rate-limit-v5-app\.mjs -> \S*node_modules\/fastify5-rate-limit\/index\.js imports node:net \(Cloudflare Workers have no sockets/)
  } finally {
    rmSync(out, { recursive: true, force: true })
  }
})

for (const [runtime, args, server] of [['bun', [], 'Bun.serve'], ['deno', ['run', '-A'], 'Deno.serve']] as const) {
  test(`${runtime}: the plugins of docs/runtimes.md's table over ${server} (both lines)`, { timeout: INSTALL_AND_RUN_MS }, async (t) => {
    const bin = await binaryOrSkip(t, runtime)
    if (bin === undefined) return
    const served = start(bin, [...args, `${FIXTURES}/serve.mjs`], root)
    try {
      const ports = await until(`${runtime} did not serve`, served, async () => {
        const said = [...served.output().matchAll(/^LISTENING (4|5|node) (\d+)$/gm)]
        return said.length === 3 ? new Map(said.map((m) => [m[1] === 'node' ? 'node' : Number(m[1]), m[2]])) : undefined
      })
      assert.equal(served.output().match(new RegExp(`"msg":"Serving with ${server.replace('.', '\\.')}`, 'g'))?.length, 2, `both lines served natively:\n${served.output().slice(0, 2000)}`)
      assert.match(served.output(), new RegExp(`"msg":"Serving with ${runtime === 'bun' ? 'Bun' : 'Deno'}'s node:http`), 'node-path-app.mjs on node:http')
      for (const [line] of APPS) {
        const base = `http://127.0.0.1:${ports.get(line) as string}`
        for (const check of PLUGIN_CHECKS) await t.test(`${check.plugin} on ${runtime} (Fastify ${line} line)`, () => check.run(base, fetch, line))
      }
      await runRefused(t, runtime, `http://127.0.0.1:${ports.get(4) as string}`, fetch)
      if (runtime === 'bun') {
        await t.test('http-proxy, reply-from on bun with undici, their default client: not available (Bun\'s own undici has no Pool.request())', async () => {
          for (const path of ['/proxy/hello', '/reply-from/']) {
            const res = await fetch(`http://127.0.0.1:${ports.get(4) as string}${path}`)
            assert.equal(res.status, 500)
            assert.match((await res.json() as { message: string }).message, /^pool\.request is not a function/)
          }
        })
      }
      for (const check of NODE_PATH_CHECKS) await t.test(`${check.plugin} on ${runtime}'s node:http (Fastify 4 line)`, () => check.run(`http://127.0.0.1:${ports.get('node') as string}`, fetch, 4))
      await t.test(`under-pressure on ${runtime}: its status route`, async () => {
        const res = await fetch(`http://127.0.0.1:${ports.get(4) as string}/pressure/status`)
        assert.deepEqual([res.status, await res.json()], [200, { status: 'ok' }])
      })
    } finally {
      await served.stop()
    }
  })
}

const load = async (file: string): Promise<any> => (await import(pathToFileURL(join(root, FIXTURES, file)).href)).default

test('node: the plugins of docs/runtimes.md\'s table through app.fetch (both lines), the checks\' reference', async (t) => {
  for (const [line, file] of APPS) {
    // trellis/v5's factory takes the same call; the v4 line's types serve both here
    const factory: typeof trellisV4 = line === 4 ? trellisV4 : trellisV5 as unknown as typeof trellisV4
    const app = factory()
    app.register(await load(file), { oauth2Provider: needs.oauth2Provider })
    app.register(await load(line === 4 ? 'session-app.mjs' : 'session-app-v5.mjs'))
    app.register(await load(line === 4 ? 'pressure-app.mjs' : 'rate-limit-v5-app.mjs'))
    if (line === 4) app.register(await load('refused-app.mjs'), needs)
    // the peer address a runtime would give (Bun's requestIP, Deno's remoteAddr): request.ip
    const send: Send = async (url, init) => app.fetch(new Request(url, init), { remoteAddress: '127.0.0.1' })
    try {
      const base = 'http://cells.test'
      for (const check of PLUGIN_CHECKS) await t.test(`${check.plugin} on Node's app.fetch (Fastify ${line} line)`, () => check.run(base, send, line))
      if (line === 4) {
        await runRefused(t, 'Node\'s app.fetch', base, send)
        await t.test('under-pressure on Node\'s app.fetch: its status route', async () => {
          const res = await send(`${base}/pressure/status`)
          assert.deepEqual([res.status, await res.json()], [200, { status: 'ok' }])
        })
      }
    } finally {
      await app.close()
    }
  }
})

test('@fastify/express through app.fetch: not available, app.fetch refuses the application naming the plugin and the process lives on', async () => {
  assert.ok(existsSync(BIN), 'dist/ is missing: run `npm run build` first (npm test builds before testing)')
  const ran = await runChild(process.execPath, [join(FIXTURES, 'express-fetch.mjs')], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 })
  assert.equal(ran.status, 0, `the process died:\n${ran.stderr}`)
  assert.doesNotMatch(ran.stdout, /^ANSWER/m)
  assert.match(ran.stdout, /^REFUSED TRL_ERR_FETCH_UNAVAILABLE app\.fetch\(\) cannot serve this application: @fastify\/express needs node:http's own objects .*; serve it with listen\(\) on node:http$/m)
})
