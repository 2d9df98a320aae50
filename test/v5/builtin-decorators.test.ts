import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: the request's and reply's own properties count as decorators`, () => {
    const app = factory()
    for (const prop of ['id', 'params', 'raw', 'query', 'log', 'body']) {
      assert.equal(app.hasRequestDecorator(prop), true, prop)
      assert.doesNotThrow(() => app.decorateRequest(`uses_${prop}`, null, [prop]))
    }
    for (const prop of ['raw', 'request', 'log']) {
      assert.equal(app.hasReplyDecorator(prop), true, prop)
      assert.doesNotThrow(() => app.decorateReply(`uses_${prop}`, null, [prop]))
    }
    assert.equal(app.hasRequestDecorator('nonExistent'), false)
    assert.throws(() => app.decorateRequest('body', null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
    assert.throws(() => app.decorateReply('request', null), { code: 'FST_ERR_DEC_ALREADY_PRESENT' })
    assert.throws(() => app.decorateReply('other', null, ['body']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY' })
  })
}

test('trellis (v4 line): the built-in properties are not decorators', () => {
  const app = v4()
  assert.equal(app.hasRequestDecorator('body'), false)
  assert.throws(() => app.decorateRequest('uses_body', null, ['body']), { code: 'FST_ERR_DEC_MISSING_DEPENDENCY' })
})
