/**
 * The persistent schema cache: a restarted server (warm cache) validates exactly as a cold one and
 * as one without the cache, and compiles nothing.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { answers, buildApp } from './app'
import { entries, packFiles, restart, tempCacheDir, validatorKeys } from './helpers'

test('cold and warm boots answer like a server without the cache: errors, coercion, defaults, removeAdditional, formats, $ref, recursion, $async', async (t) => {
  const dir = tempCacheDir(t)
  const expected = await answers(buildApp({}))
  restart()
  const cold = await answers(buildApp({ schemaCache: { dir } }))
  assert.deepEqual(cold, expected)
  // every route schema part was stored: the 4 parts of /plain, the bodies of /ref, /whole, /tree and /async
  assert.equal(validatorKeys(dir).length, 8)
  assert.equal(packFiles(dir).length, 1, 'in one pack')
  const before = entries(dir)
  restart()
  const warm = await answers(buildApp({ schemaCache: { dir } }))
  assert.deepEqual(warm, expected)
  assert.deepEqual(entries(dir), before, 'a warm boot writes nothing: every validator came from the cache')
  // sanity: the expectations are not trivially equal
  assert.deepEqual(expected.map((a) => a.status), [200, 400, 400, 400, 400, 400, 400, 400, 200, 400, 400, 400, 200, 400, 400, 400, 200, 200, 400, 400])
  assert.deepEqual(expected[0].body, { params: { id: 7 }, query: { n: 3, tags: ['a'] }, level: 2, body: { name: 'ann', count: 3, tags: [] } })
  assert.equal((expected[6].body as { message: string }).message, 'body/tags must NOT have duplicate items (items ## 0 and 1 are identical)')
})

test('the environment variable TRELLIS_SCHEMA_CACHE_DIR turns the cache on; schemaCache: false keeps it off', async (t) => {
  const dir = tempCacheDir(t)
  const saved = process.env.TRELLIS_SCHEMA_CACHE_DIR
  process.env.TRELLIS_SCHEMA_CACHE_DIR = dir
  t.after(() => { if (saved === undefined) delete process.env.TRELLIS_SCHEMA_CACHE_DIR; else process.env.TRELLIS_SCHEMA_CACHE_DIR = saved })
  await answers(buildApp({ schemaCache: false }))
  assert.equal(entries(dir).size, 0)
  restart()
  await answers(buildApp({}))
  assert.ok(entries(dir).size > 0)
})

test('schemaCache must be { dir: string } or false', () => {
  for (const bad of [{ dir: '' }, { dir: 5 }, 'dir', {}]) {
    assert.throws(() => buildApp({ schemaCache: bad }), { code: 'FST_ERR_INIT_OPTS_INVALID', message: /schemaCache/ })
  }
})
