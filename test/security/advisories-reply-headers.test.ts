/**
 * A `set-cookie` array handed to `reply.header()` was stored as it was, and a later
 * `reply.header('set-cookie', ...)` pushed into it: when the array is a module-level constant,
 * every response added to it, so one user's session cookie went out to the users after them.
 * Fastify 4.29 does the same; Fastify 5.12 (after 5.12.1) copies the array. Over a real socket.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

describe('reply.header(\'set-cookie\', array): the caller\'s array is never shared between requests', () => {
  it('each user gets the common cookies and their own session, nobody else\'s', async () => {
    const COMMON = ['theme=dark; Path=/', 'lang=en; Path=/']
    const app = trellis()
    app.get('/login/:user', async (req, reply) => {
      reply.header('set-cookie', COMMON)
      reply.header('set-cookie', `session=${(req.params as { user: string }).user}; HttpOnly`)
      return 'ok'
    })
    app.get('/plain', async (_req, reply) => {
      reply.headers({ 'set-cookie': COMMON })
      return 'ok'
    })
    const { port } = await listen(app)
    try {
      for (const user of ['alice', 'bob', 'carol']) {
        const res = await request(port, { path: `/login/${user}` })
        assert.equal(res.statusCode, 200)
        assert.deepEqual(res.headers['set-cookie'], ['theme=dark; Path=/', 'lang=en; Path=/', `session=${user}; HttpOnly`])
      }
      const res = await request(port, { path: '/plain' })
      assert.deepEqual(res.headers['set-cookie'], ['theme=dark; Path=/', 'lang=en; Path=/'])
      assert.deepEqual(COMMON, ['theme=dark; Path=/', 'lang=en; Path=/'], 'the application\'s array is unchanged')
    } finally {
      await app.close()
    }
  })
})
