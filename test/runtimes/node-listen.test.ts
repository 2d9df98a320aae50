// On Node, listen() and close() serve with node:http and load nothing of src/transport/ (the
// runtimes' servers and the fetch transport load on Bun and Deno, or on the first app.fetch).
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'

test('listen() on Node loads no transport and says nothing about runtimes', async () => {
  const lines: string[] = []
  const app = (trellis as unknown as (opts?: object) => any)({ logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line).msg) } } } })
  app.get('/', async () => ({ ok: true }))
  const address = await app.listen({ port: 0, host: '127.0.0.1' })
  const res = await fetch(`${address}/`)
  assert.deepEqual(await res.json(), { ok: true })
  await app.close()
  assert.deepEqual(Object.keys(require.cache).filter((file) => /[\\/]src[\\/]transport[\\/]/.test(file)), [])
  assert.equal(lines.some((l) => /^Serving with/.test(l)), false)
  assert.ok(lines.includes(`Server listening at ${address}`))
})
