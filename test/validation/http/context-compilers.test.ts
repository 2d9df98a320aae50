/**
 * instance.validatorCompiler / serializerCompiler report the default compilers the context's
 * routes were built with (Fastify 4.3): undefined before ready, shared by contexts with the same
 * shared schemas, inherited from the nearest ancestor, never the route-level ones.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../../src/index'

const route = (app: any, url: string, extra: Record<string, unknown> = {}): void => {
  app.post(url, { schema: { body: { type: 'object' }, response: { 200: { type: 'object' } } }, ...extra }, async () => ({}))
}

describe('context compilers after ready', () => {
  it('undefined before ready; after ready the built default, shared by contexts with the same schemas', async () => {
    const app = trellis()
    route(app, '/root')
    let child: any, other: any, withSchemas: any
    app.register(async (i: any) => { child = i })
    app.register(async (i: any) => { other = i; route(i, '/other') })
    app.register(async (i: any) => { withSchemas = i; i.addSchema({ $id: 'x', type: 'string' }); route(i, '/own') })
    assert.equal(app.validatorCompiler, undefined)
    await app.ready()
    assert.equal(typeof app.validatorCompiler, 'function')
    assert.equal(typeof app.serializerCompiler, 'function')
    assert.equal(child.validatorCompiler, app.validatorCompiler, 'inherited from the parent')
    assert.equal(other.validatorCompiler, app.validatorCompiler, 'same shared schemas, same compiler')
    assert.notEqual(withSchemas.validatorCompiler, app.validatorCompiler, 'own schemas, own compiler')
    await app.close()
  })

  it('route-level compilers are not reported as the context compiler', async () => {
    const app = trellis()
    route(app, '/', { validatorCompiler: () => () => true, serializerCompiler: () => JSON.stringify })
    await app.ready()
    assert.equal(app.validatorCompiler, undefined)
    assert.equal(app.serializerCompiler, undefined)
    await app.close()
  })
})

describe('withTypeProvider', () => {
  it('returns the same instance (type providers change types only)', () => {
    const app = trellis()
    assert.equal(app.withTypeProvider(), app)
  })
})
