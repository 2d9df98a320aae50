/**
 * An application's `declare module 'fastify'` and a plugin's (a CommonJS declaration file of an
 * `@fastify/*` package) must merge into one FastifyInstance whatever order tsc reads the files in
 * (`include: ["src"]` reads them alphabetically). With an `export *` declaration file for ES modules
 * beside the CommonJS one, each received its own copy of the augmented interface, and the ES-module
 * application read plugin-file-first lost its own decorator (3 errors): both lines now have one
 * `export =` file (docs/typescript.md). The fastify-alias*-augment-*.test.ts files run these tests,
 * one line and one module kind each (each tsc run takes seconds: a file per pair keeps each file
 * well inside the test runner's time limit; a file's two orders are checked side by side).
 * The declarations' own bodies are not what these tests are about (the fastify*-alias tests check
 * them with skipLibCheck off): tsc skips them here, which makes each run about 2× cheaper.
 */
import { before, test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { installedFixture, npmMissing, run } from './packed'

const KINDS = {
  esm: { kind: 'ES-module', ext: 'mts', imp: 'mjs' },
  cjs: { kind: 'CommonJS', ext: 'cts', imp: 'cjs' }
}
interface AugmentCase { kind: string, ext: string, imp: string, order: string[] }

/**
 * Type-checks, in a folder of the installed application `app`, a plugin file (db) that augments
 * FastifyInstance with `users: number` and a server file that imports `plugin` (an `@fastify/*`
 * package whose declarations augment 'fastify' too), the plugin file and fastify, and assigns
 * `app.users` to a number and to a string. Returns tsc's errors as `file TSnnnn` (the string
 * assignment is the one expected: it proves the property is typed, not missing) and tsc's output.
 */
async function augmentationErrors (app: string, plugin: string, c: AugmentCase): Promise<{ errors: string[], output: string }> {
  const dir = mkdtempSync(join(app, 'augment-order-'))
  try {
    writeFileSync(join(dir, `db.${c.ext}`), "import fp from 'fastify-plugin'\nimport type { FastifyInstance } from 'fastify'\n" +
      "declare module 'fastify' { interface FastifyInstance { users: number } }\n" +
      "export default fp(async (app: FastifyInstance) => { app.decorate('users', 1) })\n")
    writeFileSync(join(dir, `server.${c.ext}`), `import '${plugin}'\nimport './db.${c.imp}'\nimport Fastify from 'fastify'\n` +
      'const app = Fastify()\nexport const users: number = app.users\nexport const wrong: string = app.users\n')
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: true, types: ['node'] },
      files: c.order.map((f) => `${f}.${c.ext}`)
    }))
    const r = await run(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir)
    const errors = r.stdout.split('\n').filter((l) => / error TS\d+/.test(l)).map((l) => l.replace(/\(.*/, '') + l.replace(/.*error (TS\d+).*/, ' $1'))
    return { errors, output: r.stdout + r.stderr }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The tests of one module kind against the installed fixture `fixture` (fastify4-app: the Fastify 4
 * line with @fastify/sensible 5; fastify5-app: trellis-fastify5 with @fastify/swagger 9), each file
 * order: the one expected error (assigning `app.users` to a string) and no other.
 */
export function augmentationOrderTests (fixture: 'fastify4-app' | 'fastify5-app', plugin: string, kind: keyof typeof KINDS): void {
  const orders = [['db', 'server'], ['server', 'db']]
  let skip: string | undefined
  // each order's tsc run, started together once the fixture is installed
  let checks: Array<Promise<{ errors: string[], output: string }>> = []
  before(async () => {
    skip = await npmMissing()
    if (skip !== undefined) return
    const app = await installedFixture(fixture)
    checks = orders.map((order) => augmentationErrors(app, plugin, { ...KINDS[kind], order }))
    // a check that fails before its test awaits it is not an unhandled rejection
    for (const check of checks) check.catch(() => {})
  }, { timeout: 240_000 })
  orders.forEach((order, i) => {
    const c = { ...KINDS[kind], order }
    test(`a ${c.kind} app's augmentation of 'fastify' and ${plugin}'s merge with the files read ${order.join(' then ')}`, { timeout: 180_000 }, async (t) => {
      if (skip !== undefined) return t.skip(skip)
      const { errors, output } = await checks[i]
      assert.deepEqual(errors, [`server.${c.ext} TS2322`], output)
    })
  })
}
