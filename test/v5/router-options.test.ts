import { test } from 'node:test'
import assert from 'node:assert/strict'
import { once } from 'node:events'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: routerOptions configure the router and win over the top-level options`, async () => {
    const app = factory({
      ignoreTrailingSlash: false,
      routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, useSemicolonDelimiter: true, querystringParser: (s: string) => ({ raw: s }) }
    })
    app.get('/Path', async (req: any) => ({ query: req.query }))
    assert.deepEqual((await app.inject('/path/?a=1')).json(), { query: { raw: 'a=1' } })
    assert.equal((await app.inject('/PATH')).statusCode, 200)
    await app.close()
  })

  test(`${name}: a top-level router option still works, with FSTDEP022 naming it`, async () => {
    const warned = once(process, 'warning')
    const app = factory({ maxParamLength: 5 })
    const [warning] = await warned
    assert.equal(warning.code, 'FSTDEP022')
    assert.match(warning.message, /maxParamLength/)
    app.get('/:id', async (req: any) => ({ id: req.params.id }))
    assert.equal((await app.inject('/12345')).statusCode, 200)
    // Fastify 5: a parameter over maxParamLength is 414
    const long = await app.inject('/123456')
    assert.equal(long.statusCode, 414)
    assert.equal(long.json().code, 'FST_ERR_MAX_PARAM_LENGTH')
    await app.close()
  })

  test(`${name}: routerOptions.defaultRoute, onBadUrl and onMaxParamLength answer what no route takes`, async () => {
    const app = factory({
      routerOptions: {
        maxParamLength: 3,
        defaultRoute: (_req: any, res: any) => { res.statusCode = 404; res.end('custom default') },
        onBadUrl: (path: string, _req: any, res: any) => { res.statusCode = 400; res.end(`bad ${path}`) },
        onMaxParamLength: (path: string, _req: any, res: any) => { res.statusCode = 414; res.end(`long ${path}`) }
      }
    })
    app.get('/a/:id', async () => 'ok')
    assert.equal((await app.inject('/nothing')).body, 'custom default')
    assert.equal((await app.inject('/a/%E0%A4%A')).body, 'bad /a/%E0%A4%A')
    assert.equal((await app.inject('/a/1234')).body, 'long /a/1234')
    await app.close()
  })

  test(`${name}: routerOptions must be an object`, () => {
    assert.throws(() => factory({ routerOptions: 'yes' }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
  })
}

test('trellis (v4 line): routerOptions is not an option; a long parameter matches no route', async () => {
  const app = v4({ maxParamLength: 5, routerOptions: { ignoreTrailingSlash: true } })
  app.get('/:id', async () => 'ok')
  assert.equal((await app.inject('/123456')).statusCode, 404)
})
