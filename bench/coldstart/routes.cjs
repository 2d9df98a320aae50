'use strict'
// The application of the cold-start benchmark (bench/coldstart.mjs), as a plugin module: N POST
// routes `/r<i>/:id`, each with its own params, querystring, body and response schema (property
// names and limits differ per route, so no two schemas are equal). N is COLDSTART_ROUTES (default 10).
// The same module is what `trellis build` compiles ahead of time.
const { distinctBody, distinctResponse } = require('../distinct-schemas.cjs')

function schemas (i) {
  return {
    params: {
      type: 'object',
      required: ['id'],
      properties: { id: { type: 'integer', minimum: i % 3 } }
    },
    querystring: {
      type: 'object',
      properties: {
        ['q' + i]: { type: 'string', maxLength: 10 + (i % 20) },
        n: { type: 'integer', maximum: 100 + i }
      }
    },
    body: distinctBody(i),
    response: distinctResponse(i)
  }
}

function handlerFor (i) {
  const idKey = 'id' + i
  const nameKey = 'name' + i
  return async function handler (request) {
    return { [idKey]: request.params.id, name: request.body[nameKey], ok: true, count: request.body.count, items: [{ k: 'a', v: 1 }] }
  }
}

module.exports = async function coldstartRoutes (app) {
  const n = Number(process.env.COLDSTART_ROUTES ?? 10)
  for (let i = 0; i < n; i++) app.post('/r' + i + '/:id', { schema: schemas(i) }, handlerFor(i))
}
