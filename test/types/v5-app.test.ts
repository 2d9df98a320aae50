/**
 * A Fastify 5 TypeScript application (test/types/fixtures/v5-app.mts: a type provider, route schemas,
 * decorators declared by module augmentation, hooks, plugins (one through fastify-plugin), v5-only
 * members, and `@ts-expect-error` lines on what Fastify 5 removed or a schema forbids) compiles under
 * `tsc --strict` against the real fastify@5.12.8 as written, and against trellis/v5 and
 * trellis/v5/plugin (the built package, through its "exports") with only the module names switched,
 * as an ES module and as CommonJS. Needs `npm run build` first.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { project, root, tsc } from './migration-project'
import type { TscResult } from '../run-tsc'

const source = readFileSync(join(__dirname, 'fixtures', 'v5-app.mts'), 'utf8')
const switched = source.replace(/from 'fastify'/g, "from 'trellis/v5'").replace(/from 'fastify-plugin'/g, "from 'trellis/v5/plugin'")
  .replace(/declare module 'fastify'/g, "declare module 'trellis/v5'")

test('only the import and declare module lines differ between the two programs', () => {
  const changed = source.split('\n').flatMap((line, i) => line === switched.split('\n')[i] ? [] : [line])
  assert.deepEqual(changed.map((line) => line.replace(/\{.*\}/, '{…}')), ["import Fastify, {…} from 'fastify'", "import fp from 'fastify-plugin'", "declare module 'fastify' {"])
})

function compile (name: string, files: Record<string, string>, links: Record<string, string>): Promise<TscResult> {
  const dir = project(name, files, links)
  return tsc(dir, ...Object.keys(files))
}

const ownPlugins = readFileSync(join(__dirname, 'fixtures', 'v5-own-plugins.mts'), 'utf8')

// the three programs, checked side by side from the first test that needs one: against fastify@5.12.8;
// against trellis (one run for two tests: each looks at the errors of its own files); trellis' own
// plugins (a program of its own: see docs/typescript.md on the order of module augmentations)
let runs: { fastify: Promise<TscResult>, trellis: Promise<TscResult>, ownPlugins: Promise<TscResult> } | undefined
const programs = (): NonNullable<typeof runs> => (runs ??= {
  fastify: compile('v5-app-fastify', { 'app.mts': source, 'app.cts': source },
    { fastify: join(root, 'node_modules', 'fastify'), 'fastify-plugin': join(root, 'node_modules', 'fastify-plugin') }),
  trellis: compile('v5-app-trellis', {
    'app.mts': switched,
    'app.cts': switched,
    'provider.mts': readFileSync(join(__dirname, 'fixtures', 'v5-provider.mts'), 'utf8')
  }, { trellis: root }),
  ownPlugins: compile('v5-own-plugins', { 'own-plugins.mts': ownPlugins, 'own-plugins.cts': ownPlugins }, { trellis: root })
})

test('the application compiles against fastify@5.12.8 (it is Fastify 5 code)', async () => {
  const { status, output } = await programs().fastify
  assert.equal(status, 0, output)
})

async function trellisErrors (file: string): Promise<string> {
  const trellisRun = await programs().trellis
  if (trellisRun.status !== 0 && trellisRun.output.trim() === '') return `tsc exited with ${String(trellisRun.status)}`
  // a diagnostic is a line and its indented continuation lines; one about another file (a declaration
  // file, say) counts for every test
  const diagnostics = trellisRun.output.split(/\n(?=\S)/).map((d) => d.trim()).filter((d) => d !== '')
  return diagnostics.filter((d) => d.startsWith(file) || !/^(app\.|provider\.mts)/.test(d)).join('\n')
}

test('the application compiles against trellis/v5 with only its import switched', async () => {
  assert.equal(await trellisErrors('app.'), '')
})

test('request parts and replies are typed from plain JSON Schema with no provider call; a contradicting return is an error', async () => {
  assert.equal(await trellisErrors('provider.mts'), '')
})

test('trellis/bearer-auth, trellis/openapi, trellis/otel and trellis/v5/plugin register on a v5 instance (ESM and CommonJS)', async () => {
  const { status, output } = await programs().ownPlugins
  assert.equal(status, 0, output)
})
