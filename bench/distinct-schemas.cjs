'use strict'
// A body and a response schema that differ per route `i` (property names and limits), so no two
// routes' schemas are equal: the schema-heavy application of bench/boot.mjs ("distinct") and of the
// cold-start benchmark (bench/coldstart/routes.cjs, which adds params and querystring).

function distinctBody (i) {
  return {
    type: 'object',
    required: ['name' + i, 'count'],
    properties: {
      ['name' + i]: { type: 'string', maxLength: 20 + (i % 50) },
      count: { type: 'integer', minimum: i % 7, maximum: 1000 + i },
      tags: { type: 'array', maxItems: 5 + (i % 5), items: { type: 'string' } },
      when: { type: 'string', format: 'date-time' }
    }
  }
}

function distinctResponse (i) {
  return {
    200: {
      type: 'object',
      properties: {
        ['id' + i]: { type: 'integer' },
        name: { type: 'string' },
        ok: { type: 'boolean' },
        count: { type: 'number' },
        items: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'number' } } } }
      }
    }
  }
}

module.exports = { distinctBody, distinctResponse }
