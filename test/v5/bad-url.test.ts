import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

const badUrlBody = (path: string): object => ({ error: 'Bad Request', code: 'FST_ERR_BAD_URL', message: `'${path}' is not a valid url component`, statusCode: 400 })

for (const [name, factory] of v5Targets) {
  test(`${name}: a malformed URL no route takes is a bad URL (400), not a 404`, async () => {
    const app = factory()
    let notFound = 0
    app.setNotFoundHandler((_req: any, reply: any) => { notFound++; reply.code(404).send('nope') })
    app.get('/known', async () => 'ok')
    const res = await app.inject({ url: '/%c0?x=1' })
    assert.equal(res.statusCode, 400)
    assert.deepEqual(res.json(), badUrlBody('/%c0?x=1'))
    assert.equal((await app.inject({ url: '/%41-missing' })).statusCode, 404)
    assert.equal(notFound, 1)
    await app.close()
  })
}

test('trellis (v4 line): a malformed URL no route takes is a 404, as Fastify 4', async () => {
  const app = v4()
  const res = await app.inject({ url: '/%c0' })
  assert.equal(res.statusCode, 404)
  await app.close()
})
