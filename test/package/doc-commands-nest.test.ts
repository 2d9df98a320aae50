/**
 * The NestJS block of README.md, run as shown against the Fastify 4 tarball packed from HEAD
 * (doc-commands.ts): `npm pkg set` of the alias and the override, the line, `npm install`,
 * `npm ls fastify`, in an application whose dependency pins a real fastify exactly, as
 * @nestjs/platform-fastify does.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run } from './packed'
import { NPM_QUIET, newApp, PATH_ENV, pkg, runShown, setup, shown, words } from './doc-commands'

const s = setup()

test('NestJS: the alias and the override set with npm pkg, every fastify of the tree is trellis', { timeout: 240_000 }, async (t) => {
  if (s.skip !== undefined) return t.skip(s.skip)
  // a dependency that pins a real fastify exactly, as @nestjs/platform-fastify does
  const dir = newApp(s.workDir, 'my-nest-app', { name: 'my-nest-app', version: '1.0.0', private: true, dependencies: { pinned: 'file:./pinned' } })
  mkdirSync(join(dir, 'pinned'))
  writeFileSync(join(dir, 'pinned', 'package.json'), JSON.stringify({ name: 'pinned', version: '1.0.0', main: 'index.js', dependencies: { fastify: '5.11.3' } }))
  writeFileSync(join(dir, 'pinned', 'index.js'), "module.exports = require('fastify')\n")
  const placeholder = "npm pkg set dependencies.fastify=file:/abs/path/to/trellis-0.1.0.tgz 'overrides.fastify=$fastify'"
  const block = shown.filter((c) => c.doc === 'README.md' && /my-nest-app|^npm pkg set|^npm (install|ls fastify)$/.test(c.command))
  // the commands below run in that folder
  assert.deepEqual(block.map((c) => c.command), ['cd my-nest-app', placeholder, 'npm pkg set trellis.fastifyLine=5 --json', 'npm install', 'npm ls fastify'], 'the NestJS block of README.md')
  // the placeholder is the absolute path of the tarball
  const [cmd, ...args] = words(placeholder).map((w) => w.replace('/abs/path/to/trellis-0.1.0.tgz', s.tarballs[4]))
  const set = await run(cmd, args, dir, PATH_ENV)
  assert.equal(set.status, 0, set.stderr)
  await runShown('npm pkg set trellis.fastifyLine=5 --json', dir)
  await runShown('npm install', dir, NPM_QUIET)
  const ls = await runShown('npm ls fastify', dir)
  const entries = ls.split('\n').filter((l) => / fastify@/.test(l))
  assert.equal(entries.length, 2, ls)
  for (const entry of entries) assert.match(entry, new RegExp(`fastify@npm:trellis@${pkg.version.replace(/\./g, '\\.')}( deduped)?$`), ls)
  assert.match(ls, /deduped/)
  // package.json reads as the JSON block of README.md says
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  assert.equal(manifest.dependencies.fastify, `file:${s.tarballs[4]}`)
  assert.deepEqual(manifest.overrides, { fastify: '$fastify' })
  assert.deepEqual(manifest.trellis, { fastifyLine: 5 })
  // the pinned package's fastify is the application's: trellis on the line package.json chose
  const r = await run(process.execPath, ['-e', "const p = require('pinned'); process.stdout.write(JSON.stringify({ same: p === require('fastify'), version: p().version }))"], dir)
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(JSON.parse(r.stdout), { same: true, version: '5.12.8' })
})
