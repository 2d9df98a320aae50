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
 */
import { before, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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
  assert.ok(!files.includes('node_modules/fastify/dist/entry/index.d.mts'), 'the v4 line\'s declarations are in the program')
  // @fastify/websocket 11 imports 'fastify/types/reply', '…/hooks', '…/route': the v5 line's declarations
  for (const name of ['reply', 'hooks', 'route']) assert.ok(files.includes(`node_modules/fastify/dist/fastify-types/v5/${name}.d.ts`), `fastify/types/${name}`)
})

// An application's `declare module 'fastify'` and a plugin's (here @fastify/swagger's, a CommonJS
// declaration file) must merge into one FastifyInstance whatever order tsc reads the files in
// (`include: ["src"]` reads them alphabetically): the ES-module and the CommonJS application, each in
// both orders.
for (const [kind, ext, imp] of [['ES-module', 'mts', 'mjs'], ['CommonJS', 'cts', 'cjs']]) {
  for (const order of [['db', 'server'], ['server', 'db']]) {
    test(`a ${kind} app's augmentation of 'fastify' and swagger's merge with the files read ${order.join(' then ')}`, { timeout: 180_000 }, async (t) => {
      if (skip !== undefined) return t.skip(skip)
      const dir = mkdtempSync(join(app, 'augment-order-'))
      try {
        writeFileSync(join(dir, `db.${ext}`), "import fp from 'fastify-plugin'\nimport type { FastifyInstance } from 'fastify'\n" +
          "declare module 'fastify' { interface FastifyInstance { users: number } }\n" +
          "export default fp(async (app: FastifyInstance) => { app.decorate('users', 1) })\n")
        writeFileSync(join(dir, `server.${ext}`), `import '@fastify/swagger'\nimport './db.${imp}'\nimport Fastify from 'fastify'\n` +
          'const app = Fastify()\nexport const users: number = app.users\nexport const wrong: string = app.users\n')
        writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
          compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: false, types: ['node'] },
          files: order.map((f) => `${f}.${ext}`)
        }))
        const r = await run(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir)
        // the one expected error proves the property is typed (number), not missing
        const errors = r.stdout.split('\n').filter((l) => / error TS\d+/.test(l))
        assert.deepEqual(errors.map((l) => l.replace(/\(.*/, '') + l.replace(/.*error (TS\d+).*/, ' $1')), [`server.${ext} TS2322`], r.stdout + r.stderr)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })
  }
}
