/**
 * @fastify/bearer-auth's advisory CVE-2022-31142 (GHSA-376v-xgjx-7mfr): keys were compared with
 * `crypto.timingSafeEqual` only when the lengths matched, so the time of a refusal told an attacker
 * the length of a valid key. trellis/bearer-auth over a real socket: every refusal is the same
 * bytes, and the comparison work does not depend on the presented token (every key compared, as
 * digests of one size).
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import crypto = require('node:crypto')
import trellis from '../../src/index'
import bearerAuth from '../../src/bearer-auth'
import { listen, rawRequest, parseRaw } from '../helpers'

const KEYS = ['k3y', 'a-medium-length-key', 'a-much-longer-key-of-forty-characters-00']

describe('CVE-2022-31142 (GHSA-376v-xgjx-7mfr): bearer-auth leaks nothing about key length', () => {
  it('tokens of every length from 0 to 60 characters (and 8 KiB) get byte-identical refusals; compare work is constant', async () => {
    const app = trellis()
    app.register(bearerAuth, { keys: KEYS })
    app.get('/secret', async () => ({ secret: 42 }))
    const { port } = await listen(app)

    const original = crypto.timingSafeEqual
    let calls: Array<[number, number]> = []
    crypto.timingSafeEqual = ((a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
      calls.push([a.byteLength, b.byteLength])
      return original(a, b)
    }) as typeof crypto.timingSafeEqual
    try {
      const send = async (token: string): Promise<string> => {
        const raw = await rawRequest(port, `GET /secret HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${token}\r\n\r\n`)
        // the Date header is the only part allowed to differ
        return raw.replace(/\r\nDate: [^\r]*/i, '')
      }
      // a prefix of the longest key at every length, then the other keys with one character changed
      const tokens: string[] = []
      const longest = KEYS[2]
      for (let n = 1; n <= 60; n++) tokens.push((longest + longest).slice(0, n).replace(/.$/, (c) => c === 'z' ? 'y' : 'z'))
      for (const key of KEYS) tokens.push(key.slice(0, -1) + (key.endsWith('x') ? 'y' : 'x'))
      tokens.push('x'.repeat(8192))

      const refusals = new Set<string>()
      for (const token of tokens) {
        calls = []
        const answer = await send(token)
        assert.equal(parseRaw(answer).statusCode, 401, `token of length ${token.length}`)
        refusals.add(answer)
        assert.equal(calls.length, KEYS.length, `every key compared for a token of length ${token.length}`)
        for (const [a, b] of calls) assert.deepEqual([a, b], [32, 32])
      }
      assert.equal(refusals.size, 1, 'one refusal, whatever the token length')

      // control: each key is accepted through the same path
      for (const key of KEYS) {
        calls = []
        assert.equal(parseRaw(await send(key)).statusCode, 200)
        assert.equal(calls.length, KEYS.length)
      }
    } finally {
      crypto.timingSafeEqual = original
      await app.close()
    }
  })
})
