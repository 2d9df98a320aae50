/**
 * ONE list of validation cases, run against every compiler in shared-cases.test.ts.
 * Each case: a route schema, a request, and either the coerced parts or the failing part + message.
 */
import type { RequestParts, RouteSchema } from '../../src/schema/validation/index'
import { parts } from './helpers'

export const sharedSchemas: Record<string, Record<string, unknown>> = {
  'http://example.com/user.json': {
    $id: 'http://example.com/user.json',
    type: 'object',
    properties: { name: { type: 'string' }, age: { type: 'integer' } },
    required: ['name'],
    definitions: { id: { type: 'integer', minimum: 1 } }
  },
  address: {
    $id: 'address',
    type: 'object',
    properties: { city: { $id: '#city', type: 'string', maxLength: 5 } },
    required: ['city']
  }
}

export interface Case {
  name: string
  schema: RouteSchema
  method?: string
  request: RequestParts
  /** on success: the parts expected after validation (deep equal, only the keys given) */
  after?: Partial<RequestParts>
  /** on failure: the part and the exact message */
  fails?: { context: string, message: string }
}

export const cases: Case[] = [
  {
    name: 'full body schema: valid body passes unchanged',
    schema: { body: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    request: parts({ body: { name: 'ann' } }),
    after: { body: { name: 'ann' } }
  },
  {
    name: 'missing required body property names the part and the property',
    schema: { body: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } },
    request: parts({ body: {} }),
    fails: { context: 'body', message: "body must have required property 'name'" }
  },
  {
    name: 'shorthand body schema is expanded to an object schema',
    schema: { body: { name: { type: 'string' }, n: { type: 'integer' } } },
    request: parts({ body: { name: 'x', n: 'abc' } }),
    fails: { context: 'body', message: 'body/n must be integer' }
  },
  {
    name: 'querystring coerces integers and single values into arrays',
    schema: { querystring: { type: 'object', properties: { n: { type: 'integer' }, ids: { type: 'array', items: { type: 'string' } } } } },
    request: parts({ query: { n: '42', ids: 'a' } }),
    after: { query: { n: 42, ids: ['a'] } }
  },
  {
    name: 'query alias validates the querystring',
    schema: { query: { n: { type: 'integer' } } },
    request: parts({ query: { n: 'x' } }),
    fails: { context: 'querystring', message: 'querystring/n must be integer' }
  },
  {
    name: 'params are coerced',
    schema: { params: { id: { type: 'integer' } } },
    request: parts({ params: { id: '7' } }),
    after: { params: { id: 7 } }
  },
  {
    name: 'params fail before body',
    schema: { params: { id: { type: 'integer' } }, body: { type: 'object', required: ['x'] } },
    request: parts({ params: { id: 'z' }, body: {} }),
    fails: { context: 'params', message: 'params/id must be integer' }
  },
  {
    name: 'body fails before querystring',
    schema: { body: { type: 'object', required: ['x'] }, querystring: { type: 'object', required: ['q'] } },
    request: parts({ body: {}, query: {} }),
    fails: { context: 'body', message: "body must have required property 'x'" }
  },
  {
    name: 'querystring fails before headers',
    schema: { querystring: { type: 'object', required: ['q'] }, headers: { type: 'object', required: ['h'] } },
    request: parts({ query: {}, headers: {} }),
    fails: { context: 'querystring', message: "querystring must have required property 'q'" }
  },
  {
    name: 'header names in the schema are matched case-insensitively',
    schema: { headers: { type: 'object', properties: { 'X-Count': { type: 'integer' } }, required: ['X-Count'] } },
    request: parts({ headers: { 'x-count': '3', host: 'h' } }),
    after: { headers: { 'x-count': 3, host: 'h' } }
  },
  {
    name: 'missing required header is reported lowercased',
    schema: { headers: { type: 'object', properties: { 'X-Token': { type: 'string' } }, required: ['X-Token'] } },
    request: parts({ headers: { host: 'h' } }),
    fails: { context: 'headers', message: "headers must have required property 'x-token'" }
  },
  {
    name: 'defaults fill missing properties',
    schema: { querystring: { type: 'object', properties: { page: { type: 'integer', default: 1 } } } },
    request: parts({ query: {} }),
    after: { query: { page: 1 } }
  },
  {
    name: 'additional properties are removed when additionalProperties is false',
    schema: { body: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false } },
    request: parts({ body: { a: 'x', secret: 1 } }),
    after: { body: { a: 'x' } }
  },
  {
    name: 'type arrays with null accept null',
    schema: { body: { type: 'object', properties: { v: { type: ['number', 'null'] } } } },
    request: parts({ body: { v: null } }),
    after: { body: { v: null } }
  },
  {
    name: 'nullable accepts null',
    schema: { body: { type: 'object', properties: { v: { type: 'string', nullable: true } } } },
    request: parts({ body: { v: null } }),
    after: { body: { v: null } }
  },
  {
    name: 'enum rejects other values',
    schema: { querystring: { type: 'object', properties: { o: { type: 'string', enum: ['asc', 'desc'] } } } },
    request: parts({ query: { o: 'up' } }),
    fails: { context: 'querystring', message: 'querystring/o must be equal to one of the allowed values' }
  },
  {
    name: 'oneOf failure reports the branch errors then the oneOf error',
    schema: { body: { type: 'object', properties: { v: { oneOf: [{ type: 'string', maxLength: 2 }, { type: 'string', minLength: 5 }] } } } },
    request: parts({ body: { v: 'abc' } }),
    fails: { context: 'body', message: 'body/v must NOT have more than 2 characters, body/v must NOT have fewer than 5 characters, body/v must match exactly one schema in oneOf' }
  },
  {
    name: 'not rejects the excluded shape',
    schema: { body: { type: 'object', properties: { v: { not: { type: 'integer' } } } } },
    request: parts({ body: { v: 3 } }),
    fails: { context: 'body', message: 'body/v must NOT be valid' }
  },
  {
    name: 'maxItems bounds arrays',
    schema: { body: { type: 'object', properties: { l: { type: 'array', maxItems: 2 } } } },
    request: parts({ body: { l: [1, 2, 3] } }),
    fails: { context: 'body', message: 'body/l must NOT have more than 2 items' }
  },
  {
    name: 'formats are checked (ajv-formats)',
    schema: { body: { type: 'object', properties: { e: { type: 'string', format: 'email' } } } },
    request: parts({ body: { e: 'nope' } }),
    fails: { context: 'body', message: 'body/e must match format "email"' }
  },
  {
    name: 'a missing body is validated as null',
    schema: { body: { type: 'object' } },
    method: 'POST',
    request: parts({ body: undefined }),
    fails: { context: 'body', message: 'body must be object' }
  },
  {
    name: '$ref to a shared schema root (uri#)',
    schema: { body: { $ref: 'http://example.com/user.json#' } },
    request: parts({ body: { age: 3 } }),
    fails: { context: 'body', message: "body must have required property 'name'" }
  },
  {
    name: '$ref to shared schema definitions (uri#/definitions/x)',
    schema: { params: { type: 'object', properties: { id: { $ref: 'http://example.com/user.json#/definitions/id' } } } },
    request: parts({ params: { id: '0' } }),
    fails: { context: 'params', message: 'params/id must be >= 1' }
  },
  {
    name: '$ref to a shared schema property (uri#/properties/x) coerces',
    schema: { querystring: { type: 'object', properties: { age: { $ref: 'http://example.com/user.json#/properties/age' } } } },
    request: parts({ query: { age: '30' } }),
    after: { query: { age: 30 } }
  },
  {
    name: '$ref to a named subschema of a shared schema (uri#name)',
    schema: { body: { type: 'object', properties: { c: { $ref: 'address#city' } } } },
    request: parts({ body: { c: 'toolongcity' } }),
    fails: { context: 'body', message: 'body/c must NOT have more than 5 characters' }
  },
  {
    name: 'local $ref to #/definitions/x',
    schema: { body: { type: 'object', definitions: { n: { type: 'integer' } }, properties: { v: { $ref: '#/definitions/n' } } } },
    request: parts({ body: { v: '12' } }),
    after: { body: { v: 12 } }
  },
  {
    name: 'local $ref to a named subschema (#name)',
    schema: { body: { type: 'object', definitions: { n: { $id: '#num', type: 'integer' } }, properties: { v: { $ref: '#num' } } } },
    request: parts({ body: { v: 'x' } }),
    fails: { context: 'body', message: 'body/v must be integer' }
  },
  {
    name: '$ref in headers to a shared schema property',
    schema: { headers: { type: 'object', properties: { 'x-age': { $ref: 'http://example.com/user.json#/properties/age' } } } },
    request: parts({ headers: { 'x-age': 'old' } }),
    fails: { context: 'headers', message: 'headers/x-age must be integer' }
  }
]
