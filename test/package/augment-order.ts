/**
 * An application's `declare module 'fastify'` and a plugin's (a CommonJS declaration file of an
 * `@fastify/*` package) must merge into one FastifyInstance whatever order tsc reads the files in
 * (`include: ["src"]` reads them alphabetically). Shared by the alias tests of both lines.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run } from './packed'

export const AUGMENT_CASES = [
  { kind: 'ES-module', ext: 'mts', imp: 'mjs' },
  { kind: 'CommonJS', ext: 'cts', imp: 'cjs' }
].flatMap((c) => [['db', 'server'], ['server', 'db']].map((order) => ({ ...c, order })))

/**
 * Type-checks, in a folder of the installed application `app`, a plugin file (db) that augments
 * FastifyInstance with `users: number` and a server file that imports `plugin` (an `@fastify/*`
 * package whose declarations augment 'fastify' too), the plugin file and fastify, and assigns
 * `app.users` to a number and to a string. Returns tsc's errors as `file TSnnnn` (the string
 * assignment is the one expected: it proves the property is typed, not missing) and tsc's output.
 */
export async function augmentationErrors (app: string, plugin: string, c: typeof AUGMENT_CASES[number]): Promise<{ errors: string[], output: string }> {
  const dir = mkdtempSync(join(app, 'augment-order-'))
  try {
    writeFileSync(join(dir, `db.${c.ext}`), "import fp from 'fastify-plugin'\nimport type { FastifyInstance } from 'fastify'\n" +
      "declare module 'fastify' { interface FastifyInstance { users: number } }\n" +
      "export default fp(async (app: FastifyInstance) => { app.decorate('users', 1) })\n")
    writeFileSync(join(dir, `server.${c.ext}`), `import '${plugin}'\nimport './db.${c.imp}'\nimport Fastify from 'fastify'\n` +
      'const app = Fastify()\nexport const users: number = app.users\nexport const wrong: string = app.users\n')
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', noEmit: true, skipLibCheck: false, types: ['node'] },
      files: c.order.map((f) => `${f}.${c.ext}`)
    }))
    const r = await run(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir)
    const errors = r.stdout.split('\n').filter((l) => / error TS\d+/.test(l)).map((l) => l.replace(/\(.*/, '') + l.replace(/.*error (TS\d+).*/, ' $1'))
    return { errors, output: r.stdout + r.stderr }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
