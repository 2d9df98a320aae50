/**
 * Every command that README.md and docs/*.md show in a shell block is one a test runs.
 *
 * The user's commands run here, as shown, in applications in temp dirs against the tarballs packed
 * from HEAD (test/package/packed.ts): the package-alias installs of both lines, the NestJS block
 * (`npm pkg set` of the alias and the override, `npm install`, `npm ls fastify`), `trellis start`
 * with workers and the three ways of choosing the Fastify line, `trellis check`, and the Workers
 * build. What changes from the text: npm's `--prefer-offline --no-audit --no-fund` (npm's cache, no
 * report), the placeholder path of the NestJS block (the real tarball), and where a command names a
 * port or an address, a free loopback port (`PORT` where the command names none).
 *
 * The rest is accounted for by the last test: a contributor's command (`npm ci`, `npm test`,
 * `npm start`, `bash .ci/run`, `npm run <script>`, `node <file>`) names a script of package.json or a
 * file of the repository (CI runs `npm ci` and `npm test`; the scripts run the rest); a command run by
 * another test file is listed in ELSEWHERE with what that file must contain; one that cannot run here
 * is listed in NOT_RUNNABLE with the words its document must say about it. A command added to a shell
 * block that none of these knows fails that test until a test runs it.
 */
import { after, before, test } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { basename, delimiter, dirname, join } from 'node:path'
import { npmMissing, packedTarball, root, run } from './packed'

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string, scripts: Record<string, string> }
const NPM_QUIET = ['--prefer-offline', '--no-audit', '--no-fund']
// the Node line of this run first on PATH: npm, npx and the `#!/usr/bin/env node` of the bin link
const PATH_ENV = { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` }

interface Shown { doc: string, line: number, command: string }

/** The commands of the shell blocks of `doc`: `\` continuations joined, comments dropped, `&&` split. */
function shellCommands (doc: string): Shown[] {
  const text = readFileSync(join(root, doc), 'utf8').split('\n')
  const out: Shown[] = []
  let inBlock = false
  let pending = ''
  let start = 0
  text.forEach((raw, i) => {
    if (/^```/.test(raw)) { inBlock = !inBlock && /^```(sh|bash|shell)\s*$/.test(raw); return }
    if (!inBlock) return
    if (pending === '') start = i + 1
    let quoted: string | undefined
    let cut = raw.length
    for (let k = 0; k < raw.length; k++) {
      const c = raw[k]
      if (quoted !== undefined) { if (c === quoted) quoted = undefined; continue }
      if (c === '\'' || c === '"') quoted = c
      else if (c === '#' && (k === 0 || /\s/.test(raw[k - 1]))) { cut = k; break }
    }
    const code = raw.slice(0, cut).trimEnd()
    if (code.endsWith('\\')) { pending += code.slice(0, -1).trim() + ' '; return }
    const whole = (pending + code.trim()).trim()
    pending = ''
    for (const command of whole.split('&&').map((s) => s.trim()).filter((s) => s !== '')) out.push({ doc, line: start, command })
  })
  return out
}

const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
const shown = DOCS.flatMap(shellCommands)
/** The commands the tests of this file ran as shown (filled as they pass). */
const ranHere = new Set<string>()

/** Splits a command into words: single and double quotes kept together, no expansion. */
function words (command: string): string[] {
  const out: string[] = []
  for (const [, single, double, bare] of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(single ?? double ?? bare)
  return out
}

/** The shown command `command` (it must be shown in one of the documents). */
function shownCommand (command: string): string {
  assert.ok(shown.some((s) => s.command === command), `no shell block of README.md or docs/ shows \`${command}\` any more`)
  return command
}

let skip: string | undefined
let workDir = ''
const tarballs = { 4: '', 5: '' }
const children: ChildProcess[] = []

before(async () => {
  skip = await npmMissing()
  if (skip !== undefined) return
  tarballs[4] = await packedTarball(4)
  tarballs[5] = await packedTarball(5)
  workDir = mkdtempSync(join(tmpdir(), 'trellis-readme-commands-'))
}, { timeout: 300_000 })

after(async () => {
  for (const child of children) await endGroup(child)
  if (workDir !== '') rmSync(workDir, { recursive: true, force: true })
})

/** Ends a process started detached, with its process group (npx does not pass signals on). */
async function endGroup (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try { process.kill(-child.pid, 'SIGTERM') } catch {}
  const timer = setTimeout(() => { try { process.kill(-(child.pid as number), 'SIGKILL') } catch {} }, 10_000)
  await exited
  clearTimeout(timer)
}

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** Runs a shown command in `cwd` (words as shown, `extra` after them); fails the test on a non-zero exit. */
async function runShown (command: string, cwd: string, extra: string[] = [], env: Record<string, string> = {}): Promise<string> {
  const [cmd, ...args] = words(shownCommand(command))
  const r = await run(cmd, [...args, ...extra], cwd, { ...PATH_ENV, ...env })
  assert.equal(r.status, 0, `\`${command}\` failed in ${cwd}:\n${r.stdout}\n${r.stderr}`)
  ranHere.add(command)
  return r.stdout
}

/** A new application folder with a package.json of `manifest` (and the files given). */
function newApp (name: string, manifest: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = join(workDir, name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  return dir
}

/** `{ version, pid }` of the application `dir` as `require('fastify')` and `import('fastify')` give it. */
async function fastifyIn (dir: string): Promise<{ cjs: string, esm: string, same: boolean }> {
  const script = "const cjs = require('fastify'); import('fastify').then((esm) => process.stdout.write(JSON.stringify({ cjs: cjs().version, esm: esm.default().version, same: esm.default === cjs })))"
  const r = await run(process.execPath, ['-e', script], dir)
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

const VERSION_APP = "module.exports = async function (app) {\n  app.get('/', async () => ({ version: app.version, pid: process.pid }))\n}\n"

/**
 * Starts a shown `npx trellis start …` in `cwd` (its own process group), with `replace` applied to
 * its words, and resolves with the port once `/` answers.
 */
async function startShown (command: string, cwd: string, options: { env?: Record<string, string>, replace?: (w: string[], port: number) => string[] } = {}): Promise<{ port: number, child: ChildProcess, output: () => string }> {
  const port = await freePort()
  let argv = words(shownCommand(command))
  const env: Record<string, string> = {}
  while (/^[A-Z_]+=/.test(argv[0])) {
    const [k, v] = argv[0].split('=')
    env[k] = v
    argv = argv.slice(1)
  }
  if (options.replace !== undefined) argv = options.replace(argv, port)
  // the command names no port: the one of the test through PORT (the flag's variable)
  const clean: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_|^NODE_TEST_CONTEXT$|^NODE_V8_COVERAGE$|^TRELLIS_/i.test(k) && v !== undefined) clean[k] = v
  const child = spawn(argv[0], argv.slice(1), {
    cwd,
    env: { ...clean, ...PATH_ENV, NODE_OPTIONS: '', PORT: String(port), ...env, ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true
  })
  children.push(child)
  let output = ''
  child.stdout?.on('data', (d: Buffer) => { output += d.toString() })
  child.stderr?.on('data', (d: Buffer) => { output += d.toString() })
  for (const started = Date.now(); ; await new Promise((resolve) => setTimeout(resolve, 200))) {
    if (child.exitCode !== null) throw new Error(`\`${command}\` exited (${child.exitCode}) in ${cwd}:\n${output}`)
    if (Date.now() - started > 60_000) throw new Error(`\`${command}\` did not answer within 60 s:\n${output}`)
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`)
      if (res.status === 200) break
    } catch {}
  }
  return { port, child, output: () => output }
}

async function getJson (port: number): Promise<{ version: string, pid: number }> {
  const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' } })
  assert.equal(res.status, 200)
  return await res.json() as { version: string, pid: number }
}

let v4App = ''

test('the package alias of each line, installed as README.md and docs/typescript.md show it', { timeout: 240_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  const lines = [
    { line: 5 as const, command: `npm install fastify@file:./trellis-fastify5-${pkg.version}.tgz`, version: '5.12.8', name: 'trellis-fastify5' },
    { line: 4 as const, command: `npm install fastify@file:./trellis-${pkg.version}.tgz`, version: '4.29.1', name: 'trellis' }
  ]
  for (const { line, command, version, name } of lines) {
    const dir = newApp(`alias-${line}`, { name: `alias-${line}`, version: '1.0.0', private: true })
    // the tarball under the name the command installs (the name `npm pack` / `npm run pack:v5` give it)
    const file = /\.\/(\S+\.tgz)$/.exec(command)?.[1] as string
    assert.equal(basename(tarballs[line]), file, 'the packed tarball has the name the documents install')
    copyFileSync(tarballs[line], join(dir, file))
    await runShown(command, dir, NPM_QUIET)
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
    assert.equal(manifest.dependencies.fastify, `file:${file}`, 'package.json as the comment beside the command says')
    assert.equal(JSON.parse(readFileSync(join(dir, 'node_modules', 'fastify', 'package.json'), 'utf8')).name, name)
    assert.deepEqual(await fastifyIn(dir), { cjs: version, esm: version, same: true })
    if (line === 4) v4App = dir
  }
  assert.match(pkg.scripts['pack:v5'], /node scripts\/pack-v5\.mjs/, '`npm run pack:v5` packs with the script test/package/packed.ts runs')
})

test('NestJS: the alias and the override set with npm pkg, every fastify of the tree is trellis', { timeout: 240_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  // a dependency that pins a real fastify exactly, as @nestjs/platform-fastify does
  const dir = newApp('my-nest-app', { name: 'my-nest-app', version: '1.0.0', private: true, dependencies: { pinned: 'file:./pinned' } })
  mkdirSync(join(dir, 'pinned'))
  writeFileSync(join(dir, 'pinned', 'package.json'), JSON.stringify({ name: 'pinned', version: '1.0.0', main: 'index.js', dependencies: { fastify: '5.11.3' } }))
  writeFileSync(join(dir, 'pinned', 'index.js'), "module.exports = require('fastify')\n")
  const block = shown.filter((s) => s.doc === 'README.md' && /my-nest-app|^npm pkg set|^npm (install|ls fastify)$/.test(s.command))
  assert.deepEqual(block.map((s) => s.command), [
    'cd my-nest-app',
    "npm pkg set dependencies.fastify=file:/abs/path/to/trellis-0.1.0.tgz 'overrides.fastify=$fastify'",
    'npm pkg set trellis.fastifyLine=5 --json',
    'npm install',
    'npm ls fastify'
  ], 'the NestJS block of README.md')
  ranHere.add('cd my-nest-app') // the commands below run in that folder
  // the placeholder is the absolute path of the tarball
  const placeholder = block[1].command
  const [cmd, ...args] = words(placeholder).map((w) => w.replace('/abs/path/to/trellis-0.1.0.tgz', tarballs[4]))
  assert.equal(basename(tarballs[4]), 'trellis-0.1.0.tgz')
  const set = await run(cmd, args, dir, PATH_ENV)
  assert.equal(set.status, 0, set.stderr)
  ranHere.add(placeholder)
  await runShown('npm pkg set trellis.fastifyLine=5 --json', dir)
  await runShown('npm install', dir, NPM_QUIET)
  const ls = await runShown('npm ls fastify', dir)
  const entries = ls.split('\n').filter((l) => / fastify@/.test(l))
  assert.equal(entries.length, 2, ls)
  for (const entry of entries) assert.match(entry, new RegExp(`fastify@npm:trellis@${pkg.version.replace(/\./g, '\\.')}( deduped)?$`), ls)
  assert.match(ls, /deduped/)
  // package.json reads as the JSON block of README.md says
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  assert.equal(manifest.dependencies.fastify, `file:${tarballs[4]}`)
  assert.deepEqual(manifest.overrides, { fastify: '$fastify' })
  assert.deepEqual(manifest.trellis, { fastifyLine: 5 })
  // the pinned package's fastify is the application's: trellis on the line package.json chose
  const r = await run(process.execPath, ['-e', "const p = require('pinned'); process.stdout.write(JSON.stringify({ same: p === require('fastify'), version: p().version }))"], dir)
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(JSON.parse(r.stdout), { same: true, version: '5.12.8' })
})

test('trellis start --workers auto serves the application from every worker', { timeout: 120_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  assert.notEqual(v4App, '', 'the Fastify 4 alias app was installed')
  writeFileSync(join(v4App, 'app.js'), VERSION_APP)
  const command = 'npx trellis start --workers auto --address 0.0.0.0 --port 3000 app.js'
  // loopback and a free port instead of every interface and 3000
  const started = await startShown(command, v4App, {
    replace: (w, port) => w.map((x, i) => w[i - 1] === '--address' ? '127.0.0.1' : w[i - 1] === '--port' ? String(port) : x)
  })
  const workers = /"workers":(\d+)/.exec(started.output())
  assert.ok(workers !== null, started.output())
  const pids = new Set<number>()
  for (let i = 0; i < 40 && pids.size < Number(workers[1]); i++) {
    const answer = await getJson(started.port)
    assert.equal(answer.version, '4.29.1')
    pids.add(answer.pid)
  }
  assert.equal(pids.size, Number(workers[1]), 'each worker answered')
  await endGroup(started.child)
  ranHere.add(command)
})

test('the three ways docs/deployment.md chooses the Fastify 5 line for trellis start', { timeout: 120_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  assert.notEqual(v4App, '', 'the Fastify 4 alias app was installed')
  writeFileSync(join(v4App, 'app.js'), VERSION_APP)
  const withSetting = join(workDir, 'alias-4-line-5')
  mkdirSync(withSetting)
  const manifest = JSON.parse(readFileSync(join(v4App, 'package.json'), 'utf8'))
  writeFileSync(join(withSetting, 'package.json'), JSON.stringify({ ...manifest, trellis: { fastifyLine: 5 } }, null, 2))
  writeFileSync(join(withSetting, 'app.js'), VERSION_APP)
  // the same installed packages (a link), the package.json setting of the comment
  await run('ln', ['-s', join(v4App, 'node_modules'), join(withSetting, 'node_modules')], withSetting)
  const ways = [
    { command: 'npx trellis start app.js', cwd: withSetting },
    { command: 'TRELLIS_FASTIFY_LINE=5 npx trellis start app.js', cwd: v4App },
    { command: 'npx trellis start --line 5 app.js', cwd: v4App }
  ]
  for (const { command, cwd } of ways) {
    const started = await startShown(command, cwd)
    assert.equal((await getJson(started.port)).version, '5.12.8', command)
    await endGroup(started.child)
    ranHere.add(command)
  }
  // and without any of them, the installed package's line
  const plain = await startShown('npx trellis start app.js', v4App)
  assert.equal((await getJson(plain.port)).version, '4.29.1')
  await endGroup(plain.child)
})

test('trellis check, as docs/migrating-to-v5.md starts the migration', { timeout: 120_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  assert.notEqual(v4App, '', 'the Fastify 4 alias app was installed')
  // a Fastify 4 application using what Fastify 5 removed
  writeFileSync(join(v4App, 'app.js'), "module.exports = async function (app) {\n  app.get('/', async (request) => ({ path: request.routerPath }))\n}\n")
  const command = 'npx trellis check app.js'
  const [cmd, ...args] = words(shownCommand(command))
  const r = await run(cmd, args, v4App, PATH_ENV)
  assert.match(r.stdout + r.stderr, /routerPath/, r.stdout + r.stderr)
  assert.equal(r.status, 1, 'a finding that breaks on Fastify 5 exits 1')
  ranHere.add(command)
})

test('the Workers build, as docs/runtimes.md shows it', { timeout: 180_000 }, async (t) => {
  if (skip !== undefined) return t.skip(skip)
  assert.notEqual(v4App, '', 'the Fastify 4 alias app was installed')
  writeFileSync(join(v4App, 'app.mjs'), "export default async function (app) {\n  app.get('/', async () => ({ version: app.version }))\n}\n")
  await runShown('npm install --save-dev esbuild', v4App, NPM_QUIET)
  await runShown('npx trellis build --target worker app.mjs --out worker', v4App)
  for (const file of ['worker.mjs', 'workerd.capnp', 'wrangler.toml']) assert.ok(existsSync(join(v4App, 'worker', file)), `worker/${file}`)
  // the bundle answers through its fetch entry (workerd serving it is test/runtimes/workerd.test.ts)
  const r = await run(process.execPath, ['--input-type=module', '-e', "const { default: w } = await import(process.argv[1]); const res = await w.fetch(new Request('http://x/')); process.stdout.write(await res.text())", join(v4App, 'worker', 'worker.mjs')], v4App)
  assert.equal(r.status, 0, r.stderr)
  assert.deepEqual(JSON.parse(r.stdout), { version: '4.29.1' })
})

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

test('every command of a shell block in README.md and docs/ is run by a test', (t) => {
  if (skip !== undefined) return t.skip(skip)
  assert.ok(shown.length > 20, `found ${shown.length} commands`)
  const unaccounted: string[] = []
  for (const { doc, line, command } of shown) {
    const where = `${doc}:${line} \`${command}\``
    if (ranHere.has(command)) continue
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
