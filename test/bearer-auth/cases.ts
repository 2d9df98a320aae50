/**
 * One case list for bearer authentication, run against trellis/bearer-auth and against the real
 * @fastify/bearer-auth@9 registered on trellis. `same` cases must behave identically; the others
 * record the deliberate differences (each plugin's own expectation is given).
 */
export const KEYS = ['key-one', 'a-much-longer-second-key-0123456789', 'ünïcødé-kéy']

export interface Expectation {
  status: number
  /** Parsed JSON body, compared deeply when given. */
  body?: unknown
  /** Expected WWW-Authenticate header (undefined: header must be absent). Checked only when `checkChallenge`. */
  challenge?: string
}

export interface BearerCase {
  name: string
  /** The authorization header, or undefined for none. */
  authorization?: string
  /** Extra plugin options (both plugins). */
  options?: Record<string, unknown>
  /** Expectation shared by both plugins... */
  expect?: Expectation
  /** ...or per plugin, when trellis deliberately differs. */
  trellis?: Expectation
  fastify?: Expectation
}

const ok: Expectation = { status: 200, body: { hello: 'world' } }
const missing: Expectation = { status: 401, body: { error: 'missing authorization header' } }
const invalid: Expectation = { status: 401, body: { error: 'invalid authorization header' } }

export const sameCases: BearerCase[] = [
  { name: 'first key accepted', authorization: 'Bearer key-one', expect: ok },
  { name: 'second (longer) key accepted', authorization: 'Bearer a-much-longer-second-key-0123456789', expect: ok },
  { name: 'non-ASCII key accepted', authorization: 'Bearer ünïcødé-kéy', expect: ok },
  { name: 'extra spaces around the token are ignored', authorization: 'Bearer   key-one  ', expect: ok },
  { name: 'no header', expect: missing },
  { name: 'empty header', authorization: '', expect: missing },
  { name: 'unknown key', authorization: 'Bearer key-two', expect: invalid },
  { name: 'prefix of a key', authorization: 'Bearer key-on', expect: invalid },
  { name: 'key plus a suffix', authorization: 'Bearer key-one1', expect: invalid },
  { name: 'key with different case', authorization: 'Bearer KEY-ONE', expect: invalid },
  { name: 'two keys in one header', authorization: 'Bearer key-one key-one', expect: invalid },
  { name: 'Basic scheme', authorization: 'Basic key-one', expect: invalid },
  { name: 'same-length other scheme', authorization: 'AAAAAA key-one', expect: invalid },
  { name: 'no space after the scheme', authorization: 'Bearerkey-one', expect: invalid },
  { name: 'scheme only', authorization: 'Bearer', expect: invalid },
  { name: 'scheme and spaces only', authorization: 'Bearer   ', expect: invalid },
  { name: 'token before the scheme', authorization: 'key-one Bearer', expect: invalid },
  { name: 'scheme with a leading space', authorization: ' Bearer key-one', expect: invalid },
  { name: 'custom bearerType accepted', authorization: 'Token key-one', options: { bearerType: 'Token' }, expect: ok },
  { name: 'custom bearerType: Bearer refused', authorization: 'Bearer key-one', options: { bearerType: 'Token' }, expect: invalid },
  {
    name: 'errorResponse shapes the 401 body',
    authorization: 'Bearer nope',
    options: { errorResponse: (err: Error) => ({ reason: err.message, ok: false }) },
    expect: { status: 401, body: { reason: 'invalid authorization header', ok: false } }
  },
  { name: 'sync auth accepting', authorization: 'Bearer anything', options: { auth: (k: string) => k === 'anything' }, expect: ok },
  { name: 'sync auth refusing', authorization: 'Bearer other', options: { auth: (k: string) => k === 'anything' }, expect: invalid },
  { name: 'async auth accepting', authorization: 'Bearer anything', options: { auth: async (k: string) => k === 'anything' }, expect: ok },
  { name: 'async auth refusing', authorization: 'Bearer other', options: { auth: async (k: string) => k === 'anything' }, expect: invalid },
  { name: 'auth receives the request', authorization: 'Bearer x', options: { auth: (_k: string, req: { url: string }) => req.url === '/test' }, expect: ok },
  { name: 'auth wins over keys', authorization: 'Bearer key-one', options: { auth: () => false }, expect: invalid }
]

/** Behaviour where trellis deliberately differs from @fastify/bearer-auth@9 (its default rfc6750 mode). */
export const differentCases: BearerCase[] = [
  { name: 'lower-case scheme (case-insensitive per RFC 7235)', authorization: 'bearer key-one', trellis: ok, fastify: invalid },
  { name: 'upper-case scheme', authorization: 'BEARER key-one', trellis: ok, fastify: invalid },
  {
    name: 'auth that throws: 401, fail closed',
    authorization: 'Bearer x',
    options: { auth: () => { throw new Error('database down') } },
    trellis: invalid,
    fastify: { status: 500, body: { error: 'database down' } }
  },
  {
    name: 'auth that rejects: 401, fail closed',
    authorization: 'Bearer x',
    options: { auth: async () => { throw new Error('database down') } },
    trellis: invalid,
    fastify: { status: 500, body: { error: 'database down' } }
  },
  {
    name: 'auth returning a non-boolean: 401',
    authorization: 'Bearer x',
    options: { auth: () => 'yes' },
    trellis: invalid,
    fastify: { status: 500, body: { error: 'internal server error' } }
  },
  { name: 'missing header: WWW-Authenticate challenge', trellis: { ...missing, challenge: 'Bearer' }, fastify: { ...missing, challenge: undefined } },
  { name: 'wrong key: invalid_token challenge', authorization: 'Bearer nope', trellis: { ...invalid, challenge: 'Bearer error="invalid_token"' }, fastify: { ...invalid, challenge: undefined } },
  { name: 'wrong scheme: plain challenge', authorization: 'Basic key-one', trellis: { ...invalid, challenge: 'Bearer' }, fastify: { ...invalid, challenge: undefined } }
]
