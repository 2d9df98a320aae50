/**
 * One list of cases for a plugin-wrapper helper (trellis/plugin, the real fastify-plugin@4):
 * a wrapped plugin runs in its parent's context, so what it defines is visible there.
 * Each case gets a factory and the wrapper, and throws (assert) when the behaviour is wrong.
 */
import assert from 'node:assert/strict'

export type Wrapper = (fn: any, options?: any) => any
export interface WrapperCase { name: string; run: (trellis: (opts?: any) => any, wrap: Wrapper) => Promise<void> }

export const wrapperCases: WrapperCase[] = [
  {
    name: 'returns the same function, marked with skip-override, display name and metadata',
    async run (_trellis, wrap) {
      const fn = async function myPlugin (): Promise<void> {}
      const wrapped = wrap(fn, { name: 'my-plugin', fastify: '4.x' })
      assert.ok(wrapped === fn, 'the same function')
      assert.equal(wrapped[Symbol.for('skip-override')], true)
      assert.equal(wrapped[Symbol.for('fastify.display-name')], 'my-plugin')
      assert.equal(wrapped[Symbol.for('plugin-meta')].name, 'my-plugin')
      assert.equal(wrapped[Symbol.for('plugin-meta')].fastify, '4.x')
    }
  },
  {
    name: 'a version string as second argument is the fastify range',
    async run (_trellis, wrap) {
      const wrapped = wrap(async function v (): Promise<void> {}, '4.x')
      assert.equal(wrapped[Symbol.for('plugin-meta')].fastify, '4.x')
    }
  },
  {
    name: 'refuses a non-function and a non-string version',
    async run (_trellis, wrap) {
      assert.throws(() => wrap('nope'), TypeError)
      assert.throws(() => wrap(async () => {}, { fastify: 4 }), TypeError)
    }
  },
  {
    name: 'the wrapped plugin receives the parent instance itself',
    async run (trellis, wrap) {
      const app = trellis()
      let got: unknown
      app.register(wrap(async (i: unknown) => { got = i }))
      await app.ready()
      assert.equal(got, app)
    }
  },
  {
    name: 'its instance decorators are visible in the parent',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(wrap(async (i: any) => { i.decorate('util', () => 'u') }))
      await app.ready()
      assert.equal(app.hasDecorator('util'), true)
      assert.equal(app.util(), 'u')
    }
  },
  {
    name: 'its request and reply decorators reach the parent\'s routes',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(wrap(async (i: any) => {
        i.decorateRequest('user', { getter () { return 'alice' } })
        i.decorateReply('ok', function (this: any) { return this.send({ ok: true }) })
      }))
      app.get('/', async (req: any, reply: any) => { reply.header('x-user', req.user); return reply.ok() })
      await app.ready()
      const res = await app.inject('/')
      assert.deepEqual(res.json(), { ok: true })
      assert.equal(res.headers['x-user'], 'alice')
    }
  },
  {
    name: 'its hooks run for the parent\'s routes, the same plugin unwrapped\'s do not',
    async run (trellis, wrap) {
      const app = trellis()
      const hookPlugin = (label: string) => async (i: any) => {
        i.addHook('onRequest', async (_req: any, reply: any) => { reply.header('x-' + label, 'yes') })
      }
      app.register(wrap(hookPlugin('wrapped')))
      app.register(hookPlugin('plain'))
      app.get('/', async () => 'ok')
      await app.ready()
      const res = await app.inject('/')
      assert.equal(res.headers['x-wrapped'], 'yes')
      assert.equal(res.headers['x-plain'], undefined)
    }
  },
  {
    name: 'wrapped inside a child: visible in that child and its descendants, not in the root or a sibling',
    async run (trellis, wrap) {
      const app = trellis()
      const seen: Record<string, unknown> = {}
      app.register(async (child: any) => {
        child.register(wrap(async (i: any) => { i.decorate('db', 'conn'); i.decorateRequest('reqDb', 'r') }))
        child.after(() => { seen.child = child.db })
        child.register(async (grandchild: any) => { seen.grandchild = grandchild.db })
        child.get('/child', async (req: any) => ({ v: req.reqDb }))
      })
      app.register(async (sibling: any) => {
        seen.sibling = sibling.db
        sibling.get('/sibling', async (req: any) => ({ v: req.reqDb }))
      })
      app.get('/root', async (req: any) => ({ v: req.reqDb }))
      await app.ready()
      assert.deepEqual(seen, { child: 'conn', grandchild: 'conn', sibling: undefined })
      assert.equal(app.db, undefined)
      assert.deepEqual((await app.inject('/child')).json(), { v: 'r' })
      assert.deepEqual((await app.inject('/sibling')).json(), {})
      assert.deepEqual((await app.inject('/root')).json(), {})
    }
  },
  {
    name: 'plugins it registers without wrapping stay encapsulated',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(wrap(async (i: any) => {
        i.decorate('outer', 1)
        i.register(async (inner: any) => { inner.decorate('inner', 2) })
      }))
      await app.ready()
      assert.equal(app.outer, 1)
      assert.equal(app.inner, undefined)
    }
  },
  {
    name: 'its routes get the parent\'s prefix, and its own prefix option is ignored',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(async (api: any) => {
        api.register(wrap(async (i: any) => { i.get('/w', async () => 'w') }), { prefix: '/ignored' })
      }, { prefix: '/api' })
      await app.ready()
      assert.equal((await app.inject('/api/w')).statusCode, 200)
      assert.equal((await app.inject('/api/ignored/w')).statusCode, 404)
    }
  },
  {
    name: 'its shared schemas are visible in the parent',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(wrap(async (i: any) => { i.addSchema({ $id: 'wrappedSchema', type: 'string' }) }))
      app.register(async (i: any) => { i.addSchema({ $id: 'childSchema', type: 'string' }) })
      await app.ready()
      assert.deepEqual(Object.keys(app.getSchemas()), ['wrappedSchema'])
    }
  },
  {
    name: 'its error handler handles the parent\'s routes',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(wrap(async (i: any) => {
        i.setErrorHandler(async (err: Error, _req: any, reply: any) => { reply.code(418); return { handled: err.message } })
      }))
      app.get('/', async () => { throw new Error('oops') })
      await app.ready()
      const res = await app.inject('/')
      assert.equal(res.statusCode, 418)
      assert.deepEqual(res.json(), { handled: 'oops' })
    }
  },
  {
    name: 'its content-type parsers are used by the parent\'s routes',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(wrap(async (i: any) => {
        i.addContentTypeParser('text/csv', { parseAs: 'string' }, (_req: any, body: string, done: any) => done(null, body.split(',')))
      }))
      app.post('/', async (req: any) => ({ body: req.body }))
      await app.ready()
      const res = await app.inject({ method: 'POST', url: '/', headers: { 'content-type': 'text/csv' }, payload: 'a,b' })
      assert.deepEqual(res.json(), { body: ['a', 'b'] })
    }
  },
  {
    name: 'a callback-style wrapped plugin works the same',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(wrap((i: any, _opts: any, done: () => void) => { i.decorate('cb', true); setTimeout(done, 5) }))
      await app.ready()
      assert.equal(app.cb, true)
    }
  },
  {
    name: 'the name goes into the pluginName chain and hasPlugin',
    async run (trellis, wrap) {
      const app = trellis()
      app.register(wrap(async () => {}, { name: 'named-wrapped' }))
      await app.ready()
      assert.equal(app.hasPlugin('named-wrapped'), true)
      assert.equal(app.pluginName, 'fastify -> named-wrapped')
    }
  },
  {
    name: 'fastify "4.x" loads, "5.x" is refused with FST_ERR_PLUGIN_VERSION_MISMATCH',
    async run (trellis, wrap) {
      const ok = trellis()
      ok.register(wrap(async () => {}, { fastify: '4.x', name: 'four' }))
      await ok.ready()
      const bad = trellis()
      let loaded = false
      bad.register(wrap(async () => { loaded = true }, { fastify: '5.x', name: 'five' }))
      await assert.rejects(bad.ready(), (err: any) => err.code === 'FST_ERR_PLUGIN_VERSION_MISMATCH' && /five/.test(err.message))
      assert.equal(loaded, false)
    }
  },
  {
    name: 'dependencies on other named plugins are checked',
    async run (trellis, wrap) {
      const missing = trellis()
      missing.register(wrap(async () => {}, { name: 'needs-db', dependencies: ['db-plugin'] }))
      await assert.rejects(missing.ready(), /db-plugin/)
      const present = trellis()
      present.register(wrap(async () => {}, { name: 'db-plugin' }))
      present.register(wrap(async () => {}, { name: 'needs-db', dependencies: ['db-plugin'] }))
      await present.ready()
    }
  },
  {
    name: 'required decorators are checked',
    async run (trellis, wrap) {
      const missing = trellis()
      missing.register(wrap(async () => {}, { name: 'needs-dec', decorators: { fastify: ['db'], request: ['user'] } }))
      await assert.rejects(missing.ready(), /'db'.*needs-dec/)
      const present = trellis()
      present.decorate('db', 1)
      present.decorateRequest('user', null)
      present.register(wrap(async () => {}, { name: 'needs-dec', decorators: { fastify: ['db'], request: ['user'] } }))
      await present.ready()
    }
  },
  {
    name: 'encapsulate: true keeps the plugin in its own context',
    async run (trellis, wrap) {
      const app = trellis()
      let name = ''
      app.register(wrap(async (i: any) => { i.decorate('hidden', 1); name = i.pluginName }, { name: 'kept-apart', encapsulate: true }))
      await app.ready()
      assert.equal(app.hidden, undefined)
      assert.equal(name, 'kept-apart')
    }
  }
]
