import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: getDecorator reads a declared decorator (methods bound), setDecorator sets one; undeclared names throw`, async () => {
    const app = factory()
    app.decorate('greeting', 'hello')
    app.decorate('shout', function (this: any) { return this.getDecorator('greeting').toUpperCase() })
    app.decorateRequest('user', null)
    app.decorateReply('stamp', function (this: any) { return `stamped ${this.statusCode}` })
    assert.equal(app.getDecorator('greeting'), 'hello')
    const shout = app.getDecorator('shout')
    assert.equal(shout(), 'HELLO')
    assert.throws(() => app.getDecorator('nope'), { code: 'FST_ERR_DEC_UNDECLARED' })
    app.get('/', (req: any, reply: any) => {
      req.setDecorator('user', { id: 1 })
      assert.throws(() => req.setDecorator('ghost', 1), { code: 'FST_ERR_DEC_UNDECLARED' })
      assert.throws(() => reply.getDecorator('ghost'), { code: 'FST_ERR_DEC_UNDECLARED' })
      const stamp = reply.getDecorator('stamp')
      reply.send({ user: req.getDecorator('user'), stamp: stamp() })
    })
    assert.deepEqual((await app.inject('/')).json(), { user: { id: 1 }, stamp: 'stamped 200' })
    await app.close()
  })
}

test('trellis (v4 line): no getDecorator / setDecorator', () => {
  const app = v4()
  assert.equal(app.getDecorator, undefined)
})
