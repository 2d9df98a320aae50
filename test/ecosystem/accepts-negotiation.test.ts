/**
 * @fastify/accepts 4 (`fastify: '4.x'`) on trellis: request.accepts() negotiates type, language,
 * encoding and charset from the request headers; reply.requestType() (decorateReply) negotiates the same way.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'

test('content negotiation from the Accept headers', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/accepts'), { decorateReply: true })
  app.get('/', async (req: any, reply: any) => {
    const accept = req.accepts()
    const type = accept.type(['json', 'html'])
    if (type === 'html') return reply.type('text/html').send('<p>hi</p>')
    return {
      type,
      language: accept.language(['en', 'fr']),
      encoding: accept.encoding(['gzip', 'identity']),
      charset: accept.charset(['utf-8', 'latin1']),
      viaReply: reply.requestType(['json', 'html'])
    }
  })
  const json = await app.inject({ url: '/', headers: { accept: 'application/json', 'accept-language': 'fr;q=0.9, en;q=0.5', 'accept-encoding': 'gzip', 'accept-charset': 'latin1' } })
  assert.deepEqual(json.json(), { type: 'json', language: 'fr', encoding: 'gzip', charset: 'latin1', viaReply: 'json' })
  const html = await app.inject({ url: '/', headers: { accept: 'text/html,application/json;q=0.5' } })
  assert.equal(html.body, '<p>hi</p>')
  assert.match(String(html.headers['content-type']), /^text\/html/)
  await app.close()
})
