/**
 * The install commands of README.md and docs/, run as shown against the tarballs packed from HEAD
 * (doc-commands.ts): the package alias of each line (README.md, docs/typescript.md).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { run } from './packed'
import { aliasApp, pkg, setup } from './doc-commands'

const s = setup()

/** What `require('fastify')` and `import('fastify')` give in the application `dir`. */
async function fastifyIn (dir: string): Promise<{ cjs: string, esm: string, same: boolean }> {
  const script = "const cjs = require('fastify'); import('fastify').then((esm) => process.stdout.write(JSON.stringify({ cjs: cjs().version, esm: esm.default().version, same: esm.default === cjs })))"
  const r = await run(process.execPath, ['-e', script], dir)
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

test('the package alias of each line, installed as README.md and docs/typescript.md show it', { timeout: 240_000 }, async (t) => {
  if (s.skip !== undefined) return t.skip(s.skip)
  const lines = [
    { line: 5 as const, command: 'npm install fastify@file:./trellis-fastify5-0.1.0.tgz', version: '5.12.8', name: 'trellis-fastify5' },
    { line: 4 as const, command: 'npm install fastify@file:./trellis-0.1.0.tgz', version: '4.29.1', name: 'trellis' }
  ]
  for (const { line, command, version, name } of lines) {
    const dir = await aliasApp(s, line, command)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    assert.equal(manifest.dependencies.fastify, `file:${command.slice(command.indexOf('./') + 2)}`, 'package.json as the comment beside the command says')
    assert.equal(JSON.parse(readFileSync(join(dir, 'node_modules', 'fastify', 'package.json'), 'utf8')).name, name)
    assert.deepEqual(await fastifyIn(dir), { cjs: version, esm: version, same: true })
  }
  assert.match(pkg.scripts['pack:v5'], /node scripts\/pack-v5\.mjs/, '`npm run pack:v5` packs with the script test/package/packed.ts runs')
})
