/**
 * Under the package alias (`node_modules/fastify` is trellis), TypeScript reads the `"."` export's
 * declarations, the v4 line's. A CommonJS program maps `'fastify'` to the v5 line's with `paths`
 * (docs/typescript.md): the application and the declarations of a Fastify-5 plugin (@fastify/cors 11,
 * which imports 'fastify' itself) then type-check against trellis/v5's, skipLibCheck off. Without the
 * mapping the same program fails (v4 types: no `request.host`). Needs `npm run build` first.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, symlinkSync } from 'node:fs'
import { join } from 'node:path'
import { project, root } from './migration-project'
import { runTscAsync, TscResult } from '../run-tsc'

const app = `import Fastify, { FastifyRequest } from 'fastify'
import cors from '@fastify/cors'
export async function main (): Promise<void> {
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } })
  await app.register(cors, { origin: true })
  app.get('/', async (request: FastifyRequest) => ({ host: request.host, port: request.port }))
  // @ts-expect-error Fastify 5 removed request.routerPath
  app.get('/x', async (request) => request.routerPath)
}
`
function tsconfig (paths: boolean): string {
  return JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      module: 'node16',
      moduleResolution: 'node16',
      target: 'es2022',
      esModuleInterop: true,
      preserveSymlinks: true,
      types: ['node'],
      typeRoots: [join(root, 'node_modules', '@types')],
      ...(paths ? { paths: { fastify: ['./node_modules/fastify/dist/lib/v5.d.ts'] } } : {})
    },
    files: ['app.ts']
  })
}

function check (name: string, paths: boolean): Promise<TscResult> {
  const dir = project(name, { 'app.ts': app, 'tsconfig.json': tsconfig(paths) }, { fastify: root })
  mkdirSync(join(dir, 'node_modules', '@fastify'))
  symlinkSync(join(root, 'node_modules', 'fastify5-cors'), join(dir, 'node_modules', '@fastify', 'cors'), 'dir')
  return runTscAsync(['-p', '.', '--pretty', 'false'], dir)
}

// both programs, checked side by side from the first test
let checks: { paths: Promise<TscResult>, noPaths: Promise<TscResult> } | undefined
const programs = (): NonNullable<typeof checks> => (checks ??= { paths: check('v5-alias-paths', true), noPaths: check('v5-alias-no-paths', false) })

test('with paths to the v5 declarations, a Fastify 5 app and @fastify/cors 11 type-check under the alias', async () => {
  const { status, output } = await programs().paths
  assert.equal(status, 0, output)
})

test('without the mapping, the alias gives the v4 line\'s declarations', async () => {
  const { status, output } = await programs().noPaths
  assert.notEqual(status, 0)
  assert.match(output, /Property 'host' does not exist/)
})
