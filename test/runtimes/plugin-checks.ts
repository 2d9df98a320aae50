// The checks of docs/runtimes.md's plugin table (Bun, Deno, Workers columns): one scenario per plugin
// of ./fixtures/plugins/plugins-app.mjs, over HTTP against a base URL, so that every server the
// table names (workerd, Bun.serve, Deno.serve, and Node's app.fetch: ./plugin-cells.test.ts) runs
// the same list and they cannot drift. Each check asserts the plugin's observable effect: without
// the plugin the answer differs. A server serves one application, so each check runs once per
// server (the circuit breaker and the rate limit count).
import assert from 'node:assert/strict'

/** How a check sends a request: the global fetch over a socket, or an application's app.fetch. */
export type Send = (url: string, init?: RequestInit) => Promise<Response>

export interface PluginCheck {
  /** the table's row */
  plugin: string
  run: (base: string, fetch: Send) => Promise<void>
}

async function json (res: Response): Promise<unknown> {
  const text = await res.text()
  try { return JSON.parse(text) } catch { throw new Error(`not JSON (${res.status}): ${text.slice(0, 300)}`) }
}

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
      // max 2 a minute, in memory
      for (let i = 0; i < 2; i++) {
        const ok = await fetch(`${base}/limit/`)
        assert.equal(ok.status, 200)
        assert.equal(ok.headers.get('x-ratelimit-limit'), '2')
        await ok.text()
      }
      const limited = await fetch(`${base}/limit/`)
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
 * The plugins that read files at run time (./fixtures/plugins/disk-app.mjs, Fastify 4 majors): Bun,
 * Deno and Node's app.fetch; the worker build refuses them.
 */
export const DISK_CHECKS: PluginCheck[] = [
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
  }
]
