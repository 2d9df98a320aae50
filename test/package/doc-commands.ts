/**
 * The commands of the shell blocks of README.md and docs/*.md, and what the tests that run them as
 * shown share (test/package/doc-commands-*.test.ts): the documents' commands parsed, an application
 * folder per test file, the tarballs packed from HEAD, a command run as shown, `trellis start` in its
 * own process group (npx does not pass signals on; the group is ended by its PID).
 *
 * What changes from the text when a test runs a command: npm's `--prefer-offline --no-audit
 * --no-fund` (npm's cache, no report), the placeholder path of the NestJS block (the real tarball),
 * and where a command names a port or an address, a free loopback port (`PORT` where it names none).
 */
import { after, before } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { tmpdir } from 'node:os'
import { basename, delimiter, dirname, join } from 'node:path'
import { npmMissing, packedTarball, root, run } from './packed'

export const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string, scripts: Record<string, string> }
export const NPM_QUIET = ['--prefer-offline', '--no-audit', '--no-fund']
// the Node line of this run first on PATH: npm, npx and the `#!/usr/bin/env node` of the bin link
export const PATH_ENV = { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` }

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

export const DOCS = ['README.md', ...readdirSync(join(root, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
export const shown = DOCS.flatMap(shellCommands)

/** Splits a command into words: single and double quotes kept together, no expansion. */
export function words (command: string): string[] {
  const out: string[] = []
  for (const [, single, double, bare] of command.matchAll(/'([^']*)'|"([^"]*)"|(\S+)/g)) out.push(single ?? double ?? bare)
  return out
}

/** The shown command `command` (it must be shown in one of the documents). */
export function shownCommand (command: string): string {
  assert.ok(shown.some((s) => s.command === command), `no shell block of README.md or docs/ shows \`${command}\` any more`)
  return command
}

export interface Setup { skip: string | undefined, workDir: string, tarballs: { 4: string, 5: string }, children: ChildProcess[] }

/**
 * The before and after hooks of a test file: npm present, the tarballs, a work folder, then `then`
 * (what the file's tests share); at the end the processes ended and the folder removed.
 */
export function setup (then?: (s: Setup) => Promise<void>): Setup {
  const s: Setup = { skip: undefined, workDir: '', tarballs: { 4: '', 5: '' }, children: [] }
  before(async () => {
    s.skip = await npmMissing()
    if (s.skip !== undefined) return
    s.tarballs[4] = await packedTarball(4)
    s.tarballs[5] = await packedTarball(5)
    s.workDir = mkdtempSync(join(tmpdir(), 'trellis-doc-commands-'))
    await then?.(s)
  }, { timeout: 300_000 })
  after(async () => {
    for (const child of s.children) await endGroup(child)
    if (s.workDir !== '') rmSync(s.workDir, { recursive: true, force: true })
  })
  return s
}

/**
 * An empty application with `command` (`npm install fastify@file:./<tarball>`) run in it as shown, the
 * tarball of `line` copied in under the name the command installs. Returns the folder.
 */
export async function aliasApp (s: Setup, line: 4 | 5, command: string): Promise<string> {
  const dir = newApp(s.workDir, `alias-${line}`, { name: `alias-${line}`, version: '1.0.0', private: true })
  const file = /\.\/(\S+\.tgz)$/.exec(command)?.[1] as string
  assert.equal(basename(s.tarballs[line]), file, 'the packed tarball has the name the documents install')
  copyFileSync(s.tarballs[line], join(dir, file))
  await runShown(command, dir, NPM_QUIET)
  return dir
}

/** Ends a process started detached, with its process group (npx does not pass signals on). */
export async function endGroup (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  try { process.kill(-child.pid, 'SIGTERM') } catch {}
  const timer = setTimeout(() => { try { process.kill(-(child.pid as number), 'SIGKILL') } catch {} }, 10_000)
  await exited
  clearTimeout(timer)
}

export function freePort (): Promise<number> {
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
export async function runShown (command: string, cwd: string, extra: string[] = [], env: Record<string, string> = {}): Promise<string> {
  const [cmd, ...args] = words(shownCommand(command))
  const r = await run(cmd, [...args, ...extra], cwd, { ...PATH_ENV, ...env })
  assert.equal(r.status, 0, `\`${command}\` failed in ${cwd}:\n${r.stdout}\n${r.stderr}`)
  return r.stdout
}

/** A new application folder with a package.json of `manifest` (and the files given). */
export function newApp (workDir: string, name: string, manifest: Record<string, unknown>, files: Record<string, string> = {}): string {
  const dir = join(workDir, name)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2) + '\n')
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  return dir
}

/** `{ version, pid }` of the application `dir` as `require('fastify')` and `import('fastify')` give it. */
export async function fastifyIn (dir: string): Promise<{ cjs: string, esm: string, same: boolean }> {
  const script = "const cjs = require('fastify'); import('fastify').then((esm) => process.stdout.write(JSON.stringify({ cjs: cjs().version, esm: esm.default().version, same: esm.default === cjs })))"
  const r = await run(process.execPath, ['-e', script], dir)
  assert.equal(r.status, 0, r.stderr)
  return JSON.parse(r.stdout)
}

export const VERSION_APP = "module.exports = async function (app) {\n  app.get('/', async () => ({ version: app.version, pid: process.pid }))\n}\n"

/**
 * Starts a shown `npx trellis start …` in `cwd` (its own process group), with `replace` applied to
 * its words, and resolves with the port once `/` answers.
 */
export async function startShown (children: ChildProcess[], command: string, cwd: string, options: { env?: Record<string, string>, replace?: (w: string[], port: number) => string[] } = {}): Promise<{ port: number, child: ChildProcess, output: () => string }> {
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
    // NODE_V8_COVERAGE as an own key, undefined: without the key Node would hand the child c8's
    env: { ...clean, NODE_V8_COVERAGE: undefined, ...PATH_ENV, NODE_OPTIONS: '', PORT: String(port), ...env, ...options.env },
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

export async function getJson (port: number): Promise<{ version: string, pid: number }> {
  const res = await fetch(`http://127.0.0.1:${port}/`, { headers: { connection: 'close' } })
  assert.equal(res.status, 200)
  return await res.json() as { version: string, pid: number }
}
