import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

const cases: Array<[string | undefined, string | undefined, { req: string, reply: string }]> = [
  ['Application/JSON; charset=utf-8', 'TEXT/html; x=1', { req: 'application/json', reply: 'text/html' }],
  ['text/plain ; a=b', 'application/json', { req: 'text/plain', reply: 'application/json' }],
  ['garbage', 'a/b c', { req: 'undefined', reply: 'undefined' }],
  [undefined, undefined, { req: 'undefined', reply: 'undefined' }]
]

const route = (app: any): void => {
  app.get('/', (req: any, reply: any) => {
    const seen = { req: String(req.mediaType), reply: '' }
    if (req.headers['x-reply-type'] !== undefined) reply.header('content-type', req.headers['x-reply-type'])
    seen.reply = String(reply.mediaType)
    reply.removeHeader('content-type')
    reply.send(seen)
  })
}

for (const [name, factory] of v5Targets) {
  test(`${name}: request.mediaType and reply.mediaType are the parsed type/subtype, lowercased`, async () => {
    const app = factory()
    route(app)
    for (const [requestType, replyType, expected] of cases) {
      const headers: Record<string, string> = {}
      if (requestType !== undefined) headers['content-type'] = requestType
      if (replyType !== undefined) headers['x-reply-type'] = replyType
      assert.deepEqual((await app.inject({ url: '/', headers })).json(), expected, String(requestType))
    }
    await app.close()
  })
}

test('trellis (v4 line): no mediaType on requests or replies', async () => {
  const app = v4()
  route(app)
  assert.deepEqual((await app.inject({ url: '/', headers: { 'content-type': 'text/plain', 'x-reply-type': 'text/html' } })).json(), { req: 'undefined', reply: 'undefined' })
})
