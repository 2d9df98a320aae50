/**
 * GHSA-w2qp-rph6-63g4 (Fastify ≤ 5.12.0): a body that is a JSON primitive passed its schema as the
 * coerced value (`"10"` as the integer 10, `true` as 1) but the handler got the value as sent:
 * Ajv can only replace a root value through the parent it is given. Over a real socket, with the
 * default compiler and with validators read back from the schema cache (Ajv standalone code).
 */
import { describe, it, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import trellis from '../../src/index'
import { listen, request } from '../helpers'
import { runChild } from '../run-child'

const dirs: string[] = []
after(() => { for (const dir of dirs) rmSync(dir, { recursive: true, force: true }) })

function build (options: Record<string, unknown>): ReturnType<typeof trellis> {
  const app = trellis(options)
  app.post('/count', { schema: { body: { type: 'integer', minimum: 1, maximum: 10 } } }, async (req) => ({ body: req.body, type: typeof req.body }))
  app.post('/flag', { schema: { body: { type: 'boolean' } } }, async (req) => ({ body: req.body, type: typeof req.body }))
  return app
}

async function seen (app: ReturnType<typeof trellis>, path: string, body: string): Promise<{ statusCode: number, json: any }> {
  const { port } = await listen(app)
  const res = await request(port, { method: 'POST', path, headers: { 'content-type': 'application/json' }, body })
  return { statusCode: res.statusCode, json: JSON.parse(res.body) }
}

async function check (options: Record<string, unknown>): Promise<void> {
  const cases: Array<[string, string, unknown, string]> = [
    ['/count', '"10"', 10, 'number'],
    ['/count', 'true', 1, 'number'],
    ['/count', '7', 7, 'number'],
    ['/flag', '"true"', true, 'boolean'],
    ['/flag', '0', false, 'boolean']
  ]
  for (const [path, body, value, type] of cases) {
    const app = build(options)
    try {
      const answer = await seen(app, path, body)
      assert.equal(answer.statusCode, 200, `${path} ${body}`)
      assert.deepEqual(answer.json, { body: value, type }, `${path} ${body}: the handler gets the value that was validated`)
    } finally {
      await app.close()
    }
  }
  const app = build(options)
  try {
    const answer = await seen(app, '/count', '"11"')
    assert.equal(answer.statusCode, 400)
    assert.equal(answer.json.code, 'FST_ERR_VALIDATION')
  } finally {
    await app.close()
  }
}

describe('GHSA-w2qp-rph6-63g4: a coerced root primitive reaches the handler coerced', () => {
  it('default Ajv compiler', async () => {
    await check({})
  })

  it('validators read back from the schema cache (Ajv standalone code, a fresh process)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'trellis-advisory-cache-'))
    dirs.push(dir)
    // awaited: the test process goes on with other files' tests meanwhile
    const run = async (): Promise<{ answers: unknown[], ajvLoaded: boolean }> => {
      const out = await runChild(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'coerced-root-worker.ts'), dir], { timeout: 30000 })
      assert.equal(out.status, 0, out.stderr)
      return JSON.parse(out.stdout.trim())
    }
    const expected = [[200, 10], [200, 1], [400, 'FST_ERR_VALIDATION']]
    const cold = await run()
    assert.deepEqual(cold, { answers: expected, ajvLoaded: true })
    const warm = await run()
    assert.deepEqual(warm, { answers: expected, ajvLoaded: false }, 'the warm boot validated with the cached code only')
  })
})
