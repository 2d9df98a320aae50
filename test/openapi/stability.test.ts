/**
 * Byte stability: the fixture's document is compared with golden files (committed), and the same
 * application registered in the opposite order (routes, plugins, the openapi plugin itself) gives
 * the same bytes. Regenerate the golden files after an intended change with
 * `UPDATE_GOLDEN=1 npm run test:only -- test/openapi/stability`.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildFixture } from './fixture'

async function text (order: 'given' | 'reversed', version?: string, yaml = false): Promise<string> {
  const app = buildFixture({ order, version })
  await app.ready()
  const out = yaml ? app.openapi({ yaml: true }) : JSON.stringify(app.openapi(), null, 2) + '\n'
  await app.close()
  return out
}

for (const [version, file] of [[undefined, 'fixture-3.1.json'], ['3.0.3', 'fixture-3.0.json'], [undefined, 'fixture-3.1.yaml']] as const) {
  describe(`golden ${file}`, () => {
    const golden = join(__dirname, 'golden', file)
    const yaml = file.endsWith('.yaml')
    it('the document equals the golden file byte for byte', async () => {
      const actual = await text('given', version, yaml)
      if (process.env.UPDATE_GOLDEN === '1') writeFileSync(golden, actual)
      assert.equal(actual, readFileSync(golden, 'utf8'))
    })
    it('registering everything in the opposite order gives the same bytes', async () => {
      assert.equal(await text('reversed', version, yaml), await text('given', version, yaml))
    })
  })
}
