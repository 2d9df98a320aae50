/**
 * Every command that README.md and docs/*.md show in a shell block is one a test runs: the
 * doc-commands-*.test.ts files run the user's commands as shown (each names the command it runs, and
 * fails if no document shows it any more); a contributor's command (`npm ci`, `npm test`, `npm start`,
 * `bash .ci/run`, `npm run <script>`, `node <file>`) names a script of package.json or a file of the
 * repository (CI runs `npm ci` and `npm test`; the scripts run the rest); a command another test file
 * runs is in ELSEWHERE with what that file must contain; one that cannot run here is in NOT_RUNNABLE
 * with the words its document must say of it. A command added to a shell block that none of these
 * knows fails this test until a test runs it.
 *
 * node-line: independent (the documents' text, whatever Node line runs the test: the older lines' pass of
 * .ci/run leaves this file out; Node 24 and 26 run it)
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './packed'
import { pkg, shown } from './doc-commands'

/** The test files that run the documents' commands, and their text. */
const runBy = readdirSync(__dirname).filter((f) => /^doc-commands-.*\.test\.ts$/.test(f)).map((f) => ({ file: f, text: readFileSync(join(__dirname, f), 'utf8') }))

/** Commands another test file runs: the file, and what it must contain to be running them. */
const ELSEWHERE: Record<string, { file: string, contains: string[] }> = {
  'cd worker': { file: 'test/runtimes/workerd.test.ts', contains: ['workerd.capnp', "'serve'"] },
  'npx workerd serve workerd.capnp': { file: 'test/runtimes/workerd.test.ts', contains: ['workerd.capnp', "'serve'"] }
}
/** Commands that cannot run here, and the words their document says about it. */
const NOT_RUNNABLE: Record<string, { why: string, docSays: RegExp }> = {
  'npx wrangler deploy': { why: 'deploys to a Cloudflare account', docSays: /wrangler deploy/ },
  [`npm install fastify@npm:trellis@^${pkg.version}`]: { why: 'trellis is not on the npm registry yet', docSays: /not on the npm registry yet/ },
  [`npm install fastify@npm:trellis-fastify5@^${pkg.version}`]: { why: 'trellis-fastify5 is not on the npm registry yet', docSays: /not on the npm registry yet/ }
}

/** A contributor's command: what in the repository it needs, or undefined when it is not one. */
function contributorTarget (command: string): string | undefined {
  const npm = /^npm (ci|test|start)$|^npm run (\S+)/.exec(command)
  if (npm !== null) return npm[1] === 'ci' ? 'package-lock.json' : `script ${npm[1] ?? npm[2]}`
  // `node <file>` after any variables set for it (`PATH="…" node bench/x.mjs`), `bash <file>`
  const file = /(?:^|\s)node ([\w.][\w./-]*\.m?js)\b|^bash (\S+)/.exec(command)
  return file === null ? undefined : file[1] ?? file[2]
}

test('every command of a shell block in README.md and docs/ is run by a test', () => {
  assert.ok(runBy.length >= 2, 'the doc-commands-*.test.ts files')
  assert.ok(shown.length > 20, `found ${shown.length} commands`)
  const unaccounted: string[] = []
  for (const { doc, line, command } of shown) {
    const where = `${doc}:${line} \`${command}\``
    if (runBy.some((f) => f.text.includes(`'${command}'`) || f.text.includes(`"${command}"`))) continue
    const elsewhere = ELSEWHERE[command]
    if (elsewhere !== undefined) {
      const text = readFileSync(join(root, elsewhere.file), 'utf8')
      for (const part of elsewhere.contains) assert.ok(text.includes(part), `${where}: ${elsewhere.file} no longer contains ${part}`)
      continue
    }
    const notRunnable = NOT_RUNNABLE[command]
    if (notRunnable !== undefined) {
      assert.match(readFileSync(join(root, doc), 'utf8').replace(/\s+/g, ' '), notRunnable.docSays, `${where}: ${notRunnable.why}, and ${doc} must say so`)
      continue
    }
    const target = contributorTarget(command)
    if (target === undefined) unaccounted.push(where)
    else if (target.startsWith('script ')) assert.ok(pkg.scripts[target.slice(7)] !== undefined, `${where}: package.json has no script ${target.slice(7)}`)
    else assert.ok(existsSync(join(root, target)), `${where}: ${target} does not exist`)
  }
  assert.deepEqual(unaccounted, [], 'commands shown that no test runs')
})
