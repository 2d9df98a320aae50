/**
 * ONE list of server-level validation cases: a route (method, path, schema), a request (over
 * inject), and what must come back — either what the handler saw after validation (coerced
 * values) or the 400 payload. shared-cases.test.ts runs it against every compiler.
 */
export interface HttpCase {
  name: string
  route: { method?: string | string[], url?: string, schema: Record<string, unknown> }
  request: { method?: string, url?: string, payload?: unknown, headers?: Record<string, string> }
  /** 200: the handler saw these parts (each key deep-equal; for headers, only the names given) */
  sees?: { body?: unknown, query?: unknown, params?: unknown, headers?: Record<string, unknown> }
  /** 400: the failing part and the message of the payload */
  fails?: { context: 'body' | 'querystring' | 'params' | 'headers', message: string }
}

const userBody = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] }

export const httpCases: HttpCase[] = [
  // ---- request processing rules
  { name: 'full body schema: a valid JSON body reaches the handler', route: { schema: { body: userBody } }, request: { payload: { name: 'ann' } }, sees: { body: { name: 'ann' } } },
  { name: 'missing required body property: 400 naming the part and the property', route: { schema: { body: userBody } }, request: { payload: {} }, fails: { context: 'body', message: "body must have required property 'name'" } },
  { name: 'PUT body is validated', route: { method: 'PUT', schema: { body: userBody } }, request: { method: 'PUT', payload: { name: {} } }, fails: { context: 'body', message: 'body/name must be string' } },
  { name: 'PATCH body is validated', route: { method: 'PATCH', schema: { body: userBody } }, request: { method: 'PATCH', payload: { nope: 1 } }, fails: { context: 'body', message: "body must have required property 'name'" } },
  { name: 'POST without a body is validated as null', route: { schema: { body: userBody } }, request: {}, fails: { context: 'body', message: 'body must be object' } },
  { name: 'DELETE with a parsed JSON body: the body is validated', route: { method: 'DELETE', schema: { body: userBody } }, request: { method: 'DELETE', payload: {} }, fails: { context: 'body', message: "body must have required property 'name'" } },
  { name: 'OPTIONS with a parsed JSON body: the body is validated and coerced', route: { method: 'OPTIONS', schema: { body: { n: { type: 'integer' } } } }, request: { method: 'OPTIONS', payload: { n: '4' } }, sees: { body: { n: 4 } } },
  { name: 'querystring is validated on GET', route: { method: 'GET', schema: { querystring: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } } }, request: { method: 'GET', url: '/c' }, fails: { context: 'querystring', message: "querystring must have required property 'n'" } },
  { name: 'headers are validated on GET', route: { method: 'GET', schema: { headers: { type: 'object', properties: { 'x-n': { type: 'integer' } } } } }, request: { method: 'GET', headers: { 'x-n': 'x' } }, fails: { context: 'headers', message: 'headers/x-n must be integer' } },
  { name: 'params are validated on DELETE', route: { method: 'DELETE', url: '/c/:id', schema: { params: { id: { type: 'integer' } } } }, request: { method: 'DELETE', url: '/c/abc' }, fails: { context: 'params', message: 'params/id must be integer' } },

  // ---- shorthand
  { name: 'shorthand body', route: { schema: { body: { name: { type: 'string' }, n: { type: 'integer' } } } }, request: { payload: { name: 'x', n: 'abc' } }, fails: { context: 'body', message: 'body/n must be integer' } },
  { name: 'shorthand querystring coerces', route: { method: 'GET', schema: { querystring: { n: { type: 'integer' }, b: { type: 'boolean' } } } }, request: { method: 'GET', url: '/c?n=5&b=true' }, sees: { query: { n: 5, b: true } } },
  { name: 'shorthand params coerces', route: { method: 'GET', url: '/c/:id', schema: { params: { id: { type: 'number' } } } }, request: { method: 'GET', url: '/c/1.5' }, sees: { params: { id: 1.5 } } },
  { name: 'shorthand headers', route: { method: 'GET', schema: { headers: { 'x-n': { type: 'integer' } } } }, request: { method: 'GET', headers: { 'x-n': '9' } }, sees: { headers: { 'x-n': 9 } } },

  // ---- coercion and defaults
  { name: 'spec example: ?ids=1 with an array property gives an array of one string', route: { method: 'GET', schema: { querystring: { type: 'object', properties: { ids: { type: 'array', default: [] } } } } }, request: { method: 'GET', url: '/c?ids=1' }, sees: { query: { ids: ['1'] } } },
  { name: 'repeated query values stay an array', route: { method: 'GET', schema: { querystring: { ids: { type: 'array', items: { type: 'string' } } } } }, request: { method: 'GET', url: '/c?ids=1&ids=2' }, sees: { query: { ids: ['1', '2'] } } },
  { name: 'array items are coerced', route: { method: 'GET', schema: { querystring: { ids: { type: 'array', items: { type: 'integer' } } } } }, request: { method: 'GET', url: '/c?ids=7' }, sees: { query: { ids: [7] } } },
  { name: 'missing array query property takes its default', route: { method: 'GET', schema: { querystring: { type: 'object', properties: { ids: { type: 'array', default: [] } } } } }, request: { method: 'GET', url: '/c' }, sees: { query: { ids: [] } } },
  { name: 'body numbers and booleans are coerced', route: { schema: { body: { n: { type: 'number' }, b: { type: 'boolean' } } } }, request: { payload: { n: '2.5', b: 'false' } }, sees: { body: { n: 2.5, b: false } } },
  { name: 'defaults fill missing body properties', route: { schema: { body: { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', default: [] }, page: { type: 'integer', default: 1 } } } } }, request: { payload: { name: 'a' } }, sees: { body: { name: 'a', tags: [], page: 1 } } },
  { name: 'header defaults are filled', route: { method: 'GET', schema: { headers: { type: 'object', properties: { 'x-lang': { type: 'string', default: 'en' } } } } }, request: { method: 'GET' }, sees: { headers: { 'x-lang': 'en' } } },
  { name: 'removeAdditional drops properties not declared when additionalProperties is false', route: { schema: { body: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false } } }, request: { payload: { a: 'x', secret: 1 } }, sees: { body: { a: 'x' } } },
  { name: 'removeAdditional in the querystring', route: { method: 'GET', schema: { querystring: { type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false } } }, request: { method: 'GET', url: '/c?a=1&b=2' }, sees: { query: { a: '1' } } },

  // ---- headers: names lowercased
  { name: 'header names in the schema are lowercased (mixed-case schema, any-case request)', route: { method: 'GET', schema: { headers: { type: 'object', properties: { 'X-Count': { type: 'integer' } }, required: ['X-Count'] } } }, request: { method: 'GET', headers: { 'X-COUNT': '3' } }, sees: { headers: { 'x-count': 3 } } },
  { name: 'missing required header is reported lowercased', route: { method: 'GET', schema: { headers: { type: 'object', properties: { 'X-Token': { type: 'string' } }, required: ['X-Token'] } } }, request: { method: 'GET' }, fails: { context: 'headers', message: "headers must have required property 'x-token'" } },
  { name: 'other request headers are kept', route: { method: 'GET', schema: { headers: { 'x-a': { type: 'string' } } } }, request: { method: 'GET', headers: { 'x-a': 'a', 'x-b': 'b' } }, sees: { headers: { 'x-a': 'a', 'x-b': 'b' } } },

  // ---- keywords
  { name: 'type arrays accept null', route: { schema: { body: { v: { type: ['number', 'null'] } } } }, request: { payload: { v: null } }, sees: { body: { v: null } } },
  { name: 'nullable accepts null', route: { schema: { body: { v: { type: 'string', nullable: true } } } }, request: { payload: { v: null } }, sees: { body: { v: null } } },
  { name: 'enum', route: { method: 'GET', schema: { querystring: { o: { type: 'string', enum: ['asc', 'desc'] } } } }, request: { method: 'GET', url: '/c?o=up' }, fails: { context: 'querystring', message: 'querystring/o must be equal to one of the allowed values' } },
  { name: 'minimum', route: { method: 'GET', schema: { querystring: { n: { type: 'integer', minimum: 1 } } } }, request: { method: 'GET', url: '/c?n=0' }, fails: { context: 'querystring', message: 'querystring/n must be >= 1' } },
  { name: 'maxLength', route: { schema: { body: { s: { type: 'string', maxLength: 3 } } } }, request: { payload: { s: 'abcd' } }, fails: { context: 'body', message: 'body/s must NOT have more than 3 characters' } },
  { name: 'maxItems', route: { schema: { body: { l: { type: 'array', maxItems: 2 } } } }, request: { payload: { l: [1, 2, 3] } }, fails: { context: 'body', message: 'body/l must NOT have more than 2 items' } },
  { name: 'oneOf', route: { schema: { body: { v: { oneOf: [{ type: 'string', maxLength: 2 }, { type: 'string', minLength: 5 }] } } } }, request: { payload: { v: 'abc' } }, fails: { context: 'body', message: 'body/v must NOT have more than 2 characters, body/v must NOT have fewer than 5 characters, body/v must match exactly one schema in oneOf' } },
  { name: 'not', route: { schema: { body: { v: { not: { type: 'integer' } } } } }, request: { payload: { v: 3 } }, fails: { context: 'body', message: 'body/v must NOT be valid' } },

  // ---- order: params, body, querystring, headers
  { name: 'params fail before body', route: { url: '/c/:id', schema: { params: { id: { type: 'integer' } }, body: userBody } }, request: { url: '/c/z', payload: {} }, fails: { context: 'params', message: 'params/id must be integer' } },
  { name: 'body fails before querystring', route: { schema: { body: userBody, querystring: { type: 'object', required: ['q'] } } }, request: { payload: {} }, fails: { context: 'body', message: "body must have required property 'name'" } },
  { name: 'querystring fails before headers', route: { method: 'GET', schema: { querystring: { type: 'object', required: ['q'] }, headers: { type: 'object', required: ['h'] } } }, request: { method: 'GET' }, fails: { context: 'querystring', message: "querystring must have required property 'q'" } },
  { name: 'all four parts valid: each coerced', route: { url: '/c/:id', schema: { params: { id: { type: 'integer' } }, body: { n: { type: 'integer' } }, querystring: { q: { type: 'boolean' } }, headers: { 'x-n': { type: 'number' } } } }, request: { url: '/c/3?q=true', payload: { n: '4' }, headers: { 'x-n': '5' } }, sees: { params: { id: 3 }, body: { n: 4 }, query: { q: true }, headers: { 'x-n': 5 } } },

  // ---- $ref (every form of the table) in every part
  { name: '$ref uri# (whole shared schema) in body', route: { schema: { body: { $ref: 'http://example.com/user.json#' } } }, request: { payload: { age: 3 } }, fails: { context: 'body', message: "body must have required property 'name'" } },
  { name: '$ref uri# in body coerces through the shared schema', route: { schema: { body: { $ref: 'http://example.com/user.json#' } } }, request: { payload: { name: 'a', age: '3' } }, sees: { body: { name: 'a', age: 3 } } },
  { name: '$ref uri#/definitions/x in params', route: { method: 'GET', url: '/c/:id', schema: { params: { type: 'object', properties: { id: { $ref: 'http://example.com/user.json#/definitions/id' } } } } }, request: { method: 'GET', url: '/c/0' }, fails: { context: 'params', message: 'params/id must be >= 1' } },
  { name: '$ref uri#/definitions/x in params coerces', route: { method: 'GET', url: '/c/:id', schema: { params: { type: 'object', properties: { id: { $ref: 'http://example.com/user.json#/definitions/id' } } } } }, request: { method: 'GET', url: '/c/12' }, sees: { params: { id: 12 } } },
  { name: '$ref uri#/properties/x in querystring coerces', route: { method: 'GET', schema: { querystring: { type: 'object', properties: { age: { $ref: 'http://example.com/user.json#/properties/age' } } } } }, request: { method: 'GET', url: '/c?age=30' }, sees: { query: { age: 30 } } },
  { name: '$ref uri#/properties/x in headers', route: { method: 'GET', schema: { headers: { type: 'object', properties: { 'x-age': { $ref: 'http://example.com/user.json#/properties/age' } } } } }, request: { method: 'GET', headers: { 'x-age': 'old' } }, fails: { context: 'headers', message: 'headers/x-age must be integer' } },
  { name: '$ref uri#name (named subschema of a shared schema) in body', route: { schema: { body: { type: 'object', properties: { c: { $ref: 'address#city' } } } } }, request: { payload: { c: 'toolongcity' } }, fails: { context: 'body', message: 'body/c must NOT have more than 5 characters' } },
  { name: '$ref uri#name in querystring', route: { method: 'GET', schema: { querystring: { type: 'object', properties: { c: { $ref: 'address#city' } } } } }, request: { method: 'GET', url: '/c?c=Rome' }, sees: { query: { c: 'Rome' } } },
  { name: '$ref uri# as the whole headers schema (names written lowercase)', route: { method: 'GET', schema: { headers: { $ref: 'address#' } } }, request: { method: 'GET', headers: { city: 'Oslo', zip: '123' } }, sees: { headers: { city: 'Oslo', zip: 123 } } },
  { name: '$ref uri# as the whole headers schema: missing required', route: { method: 'GET', schema: { headers: { $ref: 'address#' } } }, request: { method: 'GET' }, fails: { context: 'headers', message: "headers must have required property 'city'" } },
  { name: 'local $ref #/definitions/x in body coerces', route: { schema: { body: { type: 'object', definitions: { n: { type: 'integer' } }, properties: { v: { $ref: '#/definitions/n' } } } } }, request: { payload: { v: '12' } }, sees: { body: { v: 12 } } },
  { name: 'local $ref #name in body', route: { schema: { body: { type: 'object', definitions: { n: { $id: '#num', type: 'integer' } }, properties: { v: { $ref: '#num' } } } } }, request: { payload: { v: 'x' } }, fails: { context: 'body', message: 'body/v must be integer' } },
  { name: 'local $ref #/definitions/x in querystring', route: { method: 'GET', schema: { querystring: { type: 'object', definitions: { b: { type: 'boolean' } }, properties: { f: { $ref: '#/definitions/b' } } } } }, request: { method: 'GET', url: '/c?f=false' }, sees: { query: { f: false } } },
  { name: 'local $ref #name in params', route: { method: 'GET', url: '/c/:id', schema: { params: { type: 'object', definitions: { id: { $id: '#pid', type: 'integer', minimum: 10 } }, properties: { id: { $ref: '#pid' } } } } }, request: { method: 'GET', url: '/c/5' }, fails: { context: 'params', message: 'params/id must be >= 10' } },
  { name: 'local $ref in headers', route: { method: 'GET', schema: { headers: { type: 'object', definitions: { n: { type: 'integer' } }, properties: { 'x-n': { $ref: '#/definitions/n' } } } } }, request: { method: 'GET', headers: { 'x-n': '8' } }, sees: { headers: { 'x-n': 8 } } }
]
