// The checks of docs/runtimes.md's plugin table (Bun, Deno, Workers columns): one scenario per plugin
// of ./fixtures/plugins/plugins-app.mjs, over HTTP against a base URL, so that every server the
// table names (workerd, Bun.serve, Deno.serve, and Node's app.fetch: ./plugin-cells.test.ts) runs
// the same list and they cannot drift. Each check asserts the plugin's observable effect: without
// the plugin the answer differs. A server serves one application, so each check runs once per
// server (the circuit breaker and the rate limit count).
import assert from 'node:assert/strict'
import { connect } from 'node:net'

/** How a check sends a request: the global fetch over a socket, or an application's app.fetch. */
export type Send = (url: string, init?: RequestInit) => Promise<Response>

export interface PluginCheck {
  /** the table's row */
  plugin: string
  /** `line`: the Fastify line of the application served at `base` */
  run: (base: string, fetch: Send, line: 4 | 5) => Promise<void>
}

/** The cookie pairs (`name=value`) a response sets, for the next request's Cookie header. */
function cookiesOf (res: Response): string {
  return res.headers.getSetCookie().map((c) => c.slice(0, c.indexOf(';'))).join('; ')
}

/** One HTTP/1.1 exchange over a socket, as bytes on the wire (what a client sees before the final response too). */
async function rawExchange (base: string, path: string): Promise<string> {
  const { hostname, port } = new URL(base)
  return await new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\nConnection: close\r\n\r\n`))
    let raw = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => { raw += chunk })
    socket.on('end', () => resolve(raw))
    socket.on('error', reject)
    socket.setTimeout(10_000, () => socket.destroy(new Error(`no answer to ${path} in 10 s: ${raw}`)))
  })
}

async function json (res: Response): Promise<unknown> {
  const text = await res.text()
  try { return JSON.parse(text) } catch { throw new Error(`not JSON (${res.status}): ${text.slice(0, 300)}`) }
}

/** The OAuth2 client of ./fixtures/plugins/routes.mjs, which the test's provider (../plugin-cells.test.ts) knows. */
export const OAUTH2_CLIENT = { id: 'cid', secret: 'csecret' }
export const OAUTH2_REDIRECT_URI = 'https://app.test/oauth2/callback'

export const PLUGIN_CHECKS: PluginCheck[] = [
  {
    plugin: 'accepts',
    run: async (base, fetch) => {
      assert.deepEqual(await json(await fetch(`${base}/accepts/`, { headers: { accept: 'text/html' } })), { type: 'html' })
      assert.deepEqual(await json(await fetch(`${base}/accepts/`, { headers: { accept: 'application/json' } })), { type: 'json' })
    }
  },
  {
    plugin: 'auth, basic-auth',
    run: async (base, fetch) => {
      const none = await fetch(`${base}/basic/`)
      assert.equal(none.status, 401)
      assert.match(none.headers.get('www-authenticate') ?? '', /^Basic realm="cells"/)
      assert.equal((await json(none) as { statusCode: number }).statusCode, 401)
      const wrong = await fetch(`${base}/basic/`, { headers: { authorization: `Basic ${btoa('ada:nope')}` } })
      assert.equal(wrong.status, 401)
      await wrong.text()
      const right = await fetch(`${base}/basic/`, { headers: { authorization: `Basic ${btoa('ada:pw')}` } })
      assert.deepEqual([right.status, await json(right)], [200, { basic: 'ok' }])
    }
  },
  {
    plugin: 'bearer-auth',
    run: async (base, fetch) => {
      const none = await fetch(`${base}/bearer/`)
      assert.deepEqual([none.status, await json(none)], [401, { error: 'missing authorization header' }])
      const wrong = await fetch(`${base}/bearer/`, { headers: { authorization: 'Bearer nope' } })
      assert.equal(wrong.status, 401)
      await wrong.text()
      const right = await fetch(`${base}/bearer/`, { headers: { authorization: 'Bearer cell-key' } })
      assert.deepEqual([right.status, await json(right)], [200, { bearer: 'ok' }])
    }
  },
  {
    plugin: 'caching, etag',
    run: async (base, fetch) => {
      const first = await fetch(`${base}/caching/`)
      assert.equal(first.status, 200)
      assert.equal(first.headers.get('cache-control'), 'private, max-age=60')
      const tag = first.headers.get('etag')
      assert.match(tag ?? '', /^"[^"]+"$/)
      await first.text()
      const again = await fetch(`${base}/caching/`, { headers: { 'if-none-match': tag as string } })
      assert.equal(again.status, 304)
      assert.equal(await again.text(), '')
    }
  },
  {
    plugin: 'circuit-breaker',
    run: async (base, fetch) => {
      // the handler's error first; failures then open the circuit (threshold 2), and the route is
      // refused with 503 without running the handler
      const failed = await fetch(`${base}/breaker/`)
      assert.deepEqual([failed.status, (await json(failed) as { message: string }).message], [500, 'always fails'])
      const answers: Array<[number, string]> = []
      for (let i = 0; i < 2; i++) {
        const res = await fetch(`${base}/breaker/`)
        answers.push([res.status, (await json(res) as { message: string }).message])
      }
      assert.deepEqual(answers.at(-1), [503, 'Circuit open'], JSON.stringify(answers))
    }
  },
  {
    plugin: 'cookie',
    run: async (base, fetch) => {
      const res = await fetch(`${base}/cookie/`, { headers: { cookie: 'in=hello' } })
      assert.deepEqual(await json(res), { seen: 'hello' })
      const set = res.headers.getSetCookie()
      assert.equal(set.length, 2)
      const signed = set.find((c) => c.startsWith('signed='))
      assert.ok(signed !== undefined && /HttpOnly/.test(signed), set.join(' | '))
      const value = signed.slice(0, signed.indexOf(';'))
      assert.deepEqual(await json(await fetch(`${base}/cookie/unsign`, { headers: { cookie: value } })), { valid: true, renew: false, value: 'two' })
      assert.equal((await json(await fetch(`${base}/cookie/unsign`, { headers: { cookie: 'signed=two.forged' } })) as { valid: boolean }).valid, false)
    }
  },
  {
    plugin: 'cors',
    run: async (base, fetch) => {
      const pre = await fetch(`${base}/cors/`, { method: 'OPTIONS', headers: { origin: 'https://a.test', 'access-control-request-method': 'GET' } })
      assert.equal(pre.status, 204)
      assert.equal(pre.headers.get('access-control-allow-origin'), 'https://a.test')
      await pre.text()
      const res = await fetch(`${base}/cors/`, { headers: { origin: 'https://a.test' } })
      assert.equal(res.headers.get('access-control-allow-origin'), 'https://a.test')
      assert.deepEqual(await json(res), { cors: 'ok' })
    }
  },
  {
    plugin: 'formbody',
    run: async (base, fetch) => {
      const res = await fetch(`${base}/form/`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'name=ada&tag=a&tag=b' })
      assert.deepEqual([res.status, await json(res)], [200, { name: 'ada', tag: ['a', 'b'] }])
    }
  },
  {
    plugin: 'helmet',
    run: async (base, fetch) => {
      const res = await fetch(`${base}/helmet/`)
      assert.equal(res.headers.get('x-content-type-options'), 'nosniff')
      assert.equal(res.headers.get('x-frame-options'), 'SAMEORIGIN')
      assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'self'/)
      assert.deepEqual(await json(res), { helmet: 'ok' })
    }
  },
  {
    plugin: 'jwt',
    run: async (base, fetch) => {
      const { token } = await json(await fetch(`${base}/jwt/sign`)) as { token: string }
      assert.match(token, /^[\w-]+\.[\w-]+\.[\w-]+$/)
      const ok = await fetch(`${base}/jwt/verify`, { headers: { authorization: `Bearer ${token}` } })
      assert.deepEqual([ok.status, await json(ok)], [200, { user: 'ada' }])
      const forged = await fetch(`${base}/jwt/verify`, { headers: { authorization: `Bearer ${token.slice(0, -2)}xx` } })
      assert.equal(forged.status, 401)
      assert.equal((await json(forged) as { statusCode: number }).statusCode, 401)
    }
  },
  {
    plugin: 'middie',
    run: async (base, fetch) => {
      const res = await fetch(`${base}/middie/`)
      assert.equal(res.headers.get('x-middie'), 'ran')
      assert.deepEqual(await json(res), { middie: 'ok' })
    }
  },
  {
    plugin: 'rate-limit',
    run: async (base, fetch) => {
      // max 2 a minute, in memory, keyed by the client's address (Cloudflare's header on Workers,
      // where the peer address is that header; the other servers take the socket's)
      const headers = { 'cf-connecting-ip': '203.0.113.7' }
      for (let i = 0; i < 2; i++) {
        const ok = await fetch(`${base}/limit/`, { headers })
        assert.equal(ok.status, 200)
        assert.equal(ok.headers.get('x-ratelimit-limit'), '2')
        await ok.text()
      }
      const limited = await fetch(`${base}/limit/`, { headers })
      assert.equal(limited.status, 429)
      assert.equal((await json(limited) as { statusCode: number }).statusCode, 429)
    }
  },
  {
    plugin: 'request-context',
    run: async (base, fetch) => {
      // two requests at once: each reads back its own value after an await
      const [a, b] = await Promise.all(['ada', 'bob'].map(async (who) => json(await fetch(`${base}/context/`, { headers: { 'x-who': who } }))))
      assert.deepEqual([a, b], [{ who: 'ada' }, { who: 'bob' }])
    }
  },
  {
    plugin: 'response-validation',
    run: async (base, fetch) => {
      assert.deepEqual(await json(await fetch(`${base}/validated/good`)), { n: 1 })
      const bad = await fetch(`${base}/validated/bad`)
      assert.equal(bad.status, 500)
      assert.match((await json(bad) as { message: string }).message, /n must be integer/)
    }
  },
  {
    plugin: 'routes',
    run: async (base, fetch) => {
      // the scope's route table, filled by its onRoute hook
      assert.deepEqual(await json(await fetch(`${base}/routes/`)), { routes: ['/routes', '/routes/listed'] })
    }
  },
  {
    plugin: 'url-data',
    run: async (base, fetch) => {
      assert.deepEqual(await json(await fetch(`${base}/url-data/?a=1&b=two`)), { path: '/url-data/', query: 'a=1&b=two', only: '/url-data/' })
    }
  },
  {
    plugin: 'oauth2',
    run: async (base, fetch) => {
      // the start route redirects to the provider with a state, kept in a cookie; a callback whose
      // state is not the cookie's is refused before any token request
      const start = await fetch(`${base}/oauth2/login`, { redirect: 'manual' })
      assert.equal(start.status, 302)
      const to = new URL(start.headers.get('location') ?? '')
      assert.equal(to.origin + to.pathname, 'https://provider.test/authorize')
      assert.deepEqual([to.searchParams.get('client_id'), to.searchParams.get('redirect_uri'), to.searchParams.get('scope')], [OAUTH2_CLIENT.id, OAUTH2_REDIRECT_URI, 'read'])
      const state = to.searchParams.get('state') ?? ''
      assert.ok(state.length >= 8, to.href)
      const cookie = cookiesOf(start)
      assert.equal(cookie, `oauth2-redirect-state=${state}`)
      await start.text()
      const forged = await fetch(`${base}/oauth2/callback?code=granted-x&state=forged`, { headers: { cookie } })
      assert.equal(forged.status, 500)
      assert.match((await json(forged) as { message: string }).message, /Invalid state/)
      // the provider sends the user back with a code and the state: the plugin POSTs the code to the
      // token endpoint (the test's provider on loopback, which checks the grant, the callback URI
      // and the client's credentials) with its own HTTP client, and the route answers the token
      // the provider made from that code
      const id = Math.random().toString(36).slice(2, 10)
      const exchanged = await fetch(`${base}/oauth2/callback?code=granted-${id}&state=${state}`, { headers: { cookie } })
      assert.deepEqual([exchanged.status, await json(exchanged)], [200, { access: `token-${id}` }])
      // a code the provider does not know: its 400 reaches the route as the client's error
      const refused = await fetch(`${base}/oauth2/callback?code=stolen&state=${state}`, { headers: { cookie } })
      assert.equal(refused.status, 500)
      assert.match((await json(refused) as { message: string }).message, /^Response Error: 400 Bad Request$/)
    }
  },
  {
    plugin: 'csrf-protection',
    run: async (base, fetch) => {
      const issued = await fetch(`${base}/csrf/token`)
      const { token } = await json(issued) as { token: string }
      const cookie = cookiesOf(issued)
      assert.match(cookie, /^_csrf=/)
      const none = await fetch(`${base}/csrf/`, { method: 'POST', headers: { cookie } })
      assert.equal(none.status, 403)
      assert.equal((await json(none) as { statusCode: number }).statusCode, 403)
      const forged = await fetch(`${base}/csrf/`, { method: 'POST', headers: { cookie, 'csrf-token': `${token}x` } })
      assert.equal(forged.status, 403)
      await forged.text()
      const ok = await fetch(`${base}/csrf/`, { method: 'POST', headers: { cookie, 'csrf-token': token } })
      assert.deepEqual([ok.status, await json(ok)], [200, { csrf: 'ok' }])
    }
  },
  {
    plugin: 'session, flash',
    run: async (base, fetch) => {
      const first = await fetch(`${base}/session/count`)
      assert.deepEqual(await json(first), { n: 1 })
      const cookie = cookiesOf(first)
      assert.match(cookie, /^sessionId=/)
      assert.deepEqual(await json(await fetch(`${base}/session/count`, { headers: { cookie } })), { n: 2 })
      assert.deepEqual(await json(await fetch(`${base}/session/count`)), { n: 1 })
      // a flash message set before a redirect is read once after it
      const flashed = await fetch(`${base}/session/flash`, { headers: { cookie }, redirect: 'manual' })
      assert.deepEqual([flashed.status, flashed.headers.get('location')], [302, '/session/read'])
      await flashed.text()
      assert.deepEqual(await json(await fetch(`${base}/session/read`, { headers: { cookie } })), { info: ['saved'] })
      assert.deepEqual(await json(await fetch(`${base}/session/read`, { headers: { cookie } })), { info: [] })
    }
  },
  {
    plugin: 'early-hints',
    run: async (base, fetch) => {
      const res = await fetch(`${base}/early-hints/`)
      // a fetch handler answers with one Response, so the hints are dropped: the route's 200
      // arrives, and over a socket no 103 precedes it. Fastify 5's reply.writeEarlyHints drops
      // them; @fastify/early-hints (Fastify 4 line) writes the 103 onto reply.raw.socket, whose
      // write drops an informational response on the fetch path
      assert.deepEqual([res.status, await json(res)], [200, { page: true }])
      if (new URL(base).hostname === '127.0.0.1') assert.match(await rawExchange(base, '/early-hints/'), /^HTTP\/1\.1 200 OK\r\n/)
    }
  },
  {
    plugin: 'throttle',
    run: async (base, fetch) => {
      // 1500 bytes at 1000 B/s: the first 1000 arrive at once, the rest not before its next tick,
      // a second later (this check stops listening after 300 ms and cancels the body)
      const res = await fetch(`${base}/throttle/`)
      assert.equal(res.status, 200)
      const reader = (res.body as ReadableStream<Uint8Array>).getReader()
      let got = ''
      while (got.length < 1000) {
        const { value, done } = await reader.read()
        if (done) break
        got += new TextDecoder().decode(value)
      }
      assert.equal(got, 'z'.repeat(1000))
      let timer: NodeJS.Timeout | undefined
      const next = await Promise.race([
        reader.read().then(({ done, value }) => done ? 'the end' : `${value.byteLength} more bytes`),
        new Promise((resolve) => { timer = setTimeout(resolve, 300, 'nothing for 300 ms') })
      ])
      clearTimeout(timer)
      assert.equal(next, 'nothing for 300 ms')
      await reader.cancel()
    }
  },
  {
    plugin: 'schedule',
    run: async (base, fetch) => {
      // a job every 20 ms, added when the application readied: it runs while a request waits 150 ms
      const { before, after, status } = await json(await fetch(`${base}/schedule/`)) as { before: number, after: number, status: string }
      assert.equal(status, 'running')
      assert.ok(after - before >= 2, `the job ran ${after - before} times in 150 ms`)
    }
  },
  {
    plugin: 'sensible',
    run: async (base, fetch) => {
      const missing = await fetch(`${base}/sensible/`)
      assert.deepEqual([missing.status, await json(missing)], [404, { statusCode: 404, error: 'Not Found', message: 'no such thing' }])
      const teapot = await fetch(`${base}/sensible/teapot`)
      assert.equal(teapot.status, 418)
      assert.equal((await json(teapot) as { error: string }).error, "I'm a Teapot")
    }
  }
]

/**
 * The plugins the worker build refuses (./fixtures/plugins/refused-app.mjs, Fastify 4 majors): Bun,
 * Deno and Node's app.fetch. `needs`: a redis-server's URL, which the server is given where one is
 * installed; `notOn`: the runtime where the plugin fails instead (../plugin-cells.test.ts checks how).
 */
export const REFUSED_CHECKS: Array<PluginCheck & { needs?: 'redis', notOn?: 'bun' }> = [
  {
    plugin: 'static',
    run: async (base, fetch) => {
      const res = await fetch(`${base}/files/letters.txt`)
      assert.equal(res.status, 200)
      assert.match(res.headers.get('content-type') ?? '', /^text\/plain/)
      assert.equal(await res.text(), '0123456789abcdefghijklmnopqrstuvwxyz\n')
      const missing = await fetch(`${base}/files/nope.txt`)
      assert.equal(missing.status, 404)
      await missing.text()
    }
  },
  {
    plugin: 'view',
    run: async (base, fetch) => {
      const res = await fetch(`${base}/view/`)
      assert.match(res.headers.get('content-type') ?? '', /^text\/html/)
      assert.equal(await res.text(), '<ul><li>a</li><li>b</li></ul>')
    }
  },
  {
    plugin: 'autoload',
    run: async (base, fetch) => {
      const users = await fetch(`${base}/auto/users`)
      assert.equal(users.headers.get('x-users-hook'), '1')
      assert.deepEqual(await json(users), { users: ['ann', 'bob'], label: 'from options' })
      assert.deepEqual(await json(await fetch(`${base}/auto/users/7`)), { id: '7' })
      const health = await fetch(`${base}/auto/meta/health`)
      assert.equal(health.headers.get('x-users-hook'), null)
      assert.deepEqual(await json(health), { ok: true })
    }
  },
  {
    plugin: 'secure-session',
    run: async (base, fetch) => {
      const put = await fetch(`${base}/secure-session/put`)
      await put.text()
      const cookie = cookiesOf(put)
      assert.match(cookie, /^session=/)
      assert.ok(!cookie.includes('cart'), 'the cookie is encrypted')
      assert.deepEqual(await json(await fetch(`${base}/secure-session/get`, { headers: { cookie } })), { cart: ['a', 'b'] })
      const value = cookie.slice('session='.length)
      const tampered = `session=${value.slice(0, 5)}${value[5] === 'A' ? 'B' : 'A'}${value.slice(6)}`
      assert.deepEqual(await json(await fetch(`${base}/secure-session/get`, { headers: { cookie: tampered } })), { cart: null })
    }
  },
  {
    plugin: 'swagger',
    run: async (base, fetch) => {
      const doc = await json(await fetch(`${base}/swagger/docs/json`)) as { openapi: string, info: unknown, paths: Record<string, any> }
      assert.match(doc.openapi, /^3\./)
      assert.deepEqual(doc.info, { title: 'cells', version: '1.0.0' })
      const item = doc.paths['/swagger/items/{id}'].get
      assert.equal(item.summary, 'one item')
      assert.deepEqual(item.parameters.map((p: { name: string, in: string }) => [p.name, p.in]), [['id', 'path']])
    }
  },
  {
    plugin: 'swagger-ui',
    run: async (base, fetch) => {
      // its page and the assets it reads from its folder
      const page = await fetch(`${base}/swagger/docs/`)
      assert.equal(page.status, 200)
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/)
      assert.match(await page.text(), /swagger-ui-bundle\.js/)
      const script = await fetch(`${base}/swagger/docs/static/swagger-ui-bundle.js`)
      assert.match(script.headers.get('content-type') ?? '', /javascript/)
      assert.ok((await script.arrayBuffer()).byteLength > 100_000)
    }
  },
  {
    plugin: 'env',
    run: async (base, fetch) => {
      // the options' data checked against the schema, its default filled in
      assert.deepEqual(await json(await fetch(`${base}/env/`)), { CELLS_GREETING: 'hello', CELLS_PORT: 3000 })
    }
  },
  ...(['', '-http'] as const).map((client) => ({
    plugin: `http-proxy, reply-from (${client === '' ? 'undici, their default client' : 'node:http client, the `http` option'})`,
    notOn: client === '' ? 'bun' as const : undefined,
    run: async (base: string, fetch: Send) => {
      // the test's upstream answers with the method, path and body it was sent
      const proxied = await fetch(`${base}/proxy${client}/hello?x=1`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"sent":true}' })
      assert.equal(proxied.status, 200)
      assert.equal(proxied.headers.get('x-upstream'), 'yes')
      assert.deepEqual(await json(proxied), { method: 'POST', path: '/origin/hello?x=1', body: '{"sent":true}' })
      const from = await fetch(`${base}/reply-from${client}/`)
      assert.deepEqual([from.status, from.headers.get('x-upstream'), from.headers.get('x-reply-from')], [200, 'yes', 'yes'])
      assert.deepEqual(await json(from), { method: 'GET', path: '/origin/from', body: '' })
    }
  })),
  {
    plugin: 'redis',
    needs: 'redis',
    run: async (base, fetch) => {
      const counts = []
      for (let i = 0; i < 2; i++) counts.push(await json(await fetch(`${base}/redis/count`, { method: 'POST' })))
      assert.deepEqual(counts, [{ n: 1 }, { n: 2 }])
    }
  }
]

/**
 * The plugins that need node:http's own objects (./fixtures/plugins/node-path-app.mjs, Fastify 4
 * majors), over a socket of the runtime's node:http (Bun's, Deno's).
 */
export const NODE_PATH_CHECKS: PluginCheck[] = [
  {
    plugin: 'early-hints',
    run: async (base) => {
      // the 103 with its Link header, then the route's 200, on one socket
      const heads = (await rawExchange(base, '/early-hints/')).split('\r\n\r\n')
      assert.equal(heads[0], 'HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style', heads.join(' | '))
      assert.match(heads[1], /^HTTP\/1\.1 200 OK\r\n/)
    }
  },
  {
    plugin: 'express',
    run: async (base, fetch) => {
      const res = await fetch(`${base}/express/`)
      assert.equal(res.headers.get('x-express'), 'yes')
      assert.deepEqual(await json(res), { viaExpress: true })
    }
  }
]
