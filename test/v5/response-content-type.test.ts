// Fastify 5 picks a response schema declared per media type (`response[status].content`) by the
// reply's parsed media type, falling back to the key's catch-all media range; Fastify 4 by the
// Content-Type up to its first `;`, as written.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { v4, v5Targets } from './lines'

const CATCH_ALL = '*' + '/*'

function route (app: any): void {
  app.get('/', {
    schema: {
      response: {
        200: {
          content: {
            'application/json': {
              schema: { type: 'object', additionalProperties: false, properties: { public: { type: 'string' } } }
            },
            [CATCH_ALL]: { schema: { type: 'object', additionalProperties: false, properties: { other: { type: 'string' } } } }
          }
        }
      }
    }
  }, (req: any, reply: any) => {
    reply.header('content-type', req.headers['x-type'])
    reply.send({ public: 'ok', other: 'ok', secret: 'leak' })
  })
}

for (const [name, factory] of v5Targets) {
  test(`${name}: the response schema of a media type is found whatever the Content-Type's spelling`, async () => {
    const app = factory()
    route(app)
    for (const type of ['application/json', 'application/json ; charset=utf-8', 'application/json\t; charset=utf-8', 'application/json;']) {
      assert.deepEqual((await app.inject({ url: '/', headers: { 'x-type': type } })).json(), { public: 'ok' }, type)
    }
    assert.deepEqual((await app.inject({ url: '/', headers: { 'x-type': 'application/vnd.other+json' } })).json(), { other: 'ok' })
    await app.close()
  })
}

test('trellis (v4 line): the media type is the Content-Type up to its first ";", as written', async () => {
  const app = v4()
  route(app)
  assert.deepEqual((await app.inject({ url: '/', headers: { 'x-type': 'application/json; charset=utf-8' } })).json(), { public: 'ok' })
  // no schema for `application/json ` (space) nor for the catch-all in Fastify 4: the payload goes out whole
  assert.deepEqual((await app.inject({ url: '/', headers: { 'x-type': 'application/json ; charset=utf-8' } })).json(),
    { public: 'ok', other: 'ok', secret: 'leak' })
  await app.close()
})
