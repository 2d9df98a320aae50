/**
 * The package alias on the Fastify 5 line (see fastify5-alias.test.ts): test/package/fixtures/fastify5-app
 * installed with `fastify` pointing at the trellis-fastify5 tarball and type-checked (`tsc --noEmit`,
 * strict, module nodenext, skipLibCheck off), its ES modules and its CommonJS file, with the
 * declarations of @fastify/cors 11, @fastify/rate-limit 11, @fastify/bearer-auth 10, @fastify/swagger 9,
 * @fastify/swagger-ui 6, @fastify/websocket 11 (whose declarations import `fastify/types/reply`, `…/hooks`
 * and `…/route`) and fastify-plugin 6 in the same program: they import and augment 'fastify',
 * which must be trellis's v5 line for their augmentations to merge. On the real fastify@5.12.8 the
 * fixture type-checks with 0 errors; with `"fastify": "npm:trellis@…"` and
 * `"trellis": { "fastifyLine": 5 }` instead, tsc reports 38 (the v4 line's declarations).
 *
 * node-line: independent (tsc's verdict, whatever Node line runs the test: the older lines' pass of
 * .ci/run leaves this file out; Node 24 and 26 run it)
 */
import { before, test } from 'node:test'
import assert from 'node:assert/strict'
import { join } from 'node:path'
import { installedFixture, npmMissing, run } from './packed'

let skip: string | undefined
let app = ''

before(async () => {
  skip = await npmMissing()
  if (skip !== undefined) return
  app = await installedFixture('fastify5-app')
}, { timeout: 240_000 })

test('the app and six Fastify-5 plugins\' declarations type-check against trellis/v5\'s (strict, skipLibCheck off)', { timeout: 180_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc')
  const r = await run(process.execPath, [tsc, '-p', '.', '--noEmit', '--listFiles'], app)
  assert.equal(r.status, 0, r.stdout + r.stderr)
  const files = r.stdout.split('\n').map((f) => f.slice(app.length + 1))
  for (const plugin of ['cors', 'rate-limit', 'bearer-auth', 'swagger', 'swagger-ui', 'websocket']) {
    assert.ok(files.some((f) => f.startsWith(`node_modules/@fastify/${plugin}/`) && f.endsWith('.d.ts')), `${plugin}'s declarations were not checked`)
  }
  assert.ok(files.includes('node_modules/fastify/dist/entry/v5.d.ts'), 'the declarations of fastify are not trellis\'s v5 line')
  assert.ok(!files.includes('node_modules/fastify/dist/entry/v5.d.mts'), 'ES modules and CommonJS files see two declaration files of fastify')
  assert.ok(!files.includes('node_modules/fastify/dist/entry/index.d.ts'), 'the v4 line\'s declarations are in the program')
  // @fastify/websocket 11 imports 'fastify/types/reply', '…/hooks', '…/route': the v5 line's declarations
  for (const name of ['reply', 'hooks', 'route']) assert.ok(files.includes(`node_modules/fastify/dist/fastify-types/v5/${name}.d.ts`), `fastify/types/${name}`)
})
