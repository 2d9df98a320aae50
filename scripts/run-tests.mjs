// Runs every test file (test/**/*.test.ts) with node's own test runner, TypeScript loaded by tsx, then
// the files of test/ecosystem/ among them a second time on the Fastify 5 line (ECOSYSTEM_LINE=5:
// trellis/v5 and the plugins' Fastify-5 majors, test/ecosystem/target.ts), and those of them that
// answer through inject a third time with inject going through app.fetch (ECOSYSTEM_TRANSPORT=fetch,
// Fastify 4 line: the plugins on the fetch path, test/ecosystem/fetch-inject.ts).
// Usage: node scripts/run-tests.mjs [--coverage] [--exclude=path-filter ...] [path-filter ...]
//   --exclude   leaves out the files whose path contains it (repeatable)
//   --node-line only the files whose outcome depends on the Node.js line rather than on trellis's
//               code alone (the older lines' pass of .ci/run): the package install (test/package/),
//               the CLI (test/cli/, test/production/) and every file that reaches a real socket or
//               HTTP/2 (its source listens, connects or imports node:http, node:http2 or node:net),
//               except a file that says `node-line: independent` (tsc's or Deno's verdict, text)
//   --line-dependent  leave out the files that say `node-line: independent` (Node 26's pass of .ci/run:
//               Node 24's run has them)
//   --coverage  the same run under c8 (settings and floor in .c8rc.json): V8 coverage of every process
//               the tests start, mapped back to src/**/*.ts through tsx's source maps; a summary on
//               stdout, an HTML report in coverage/. The run fails when a figure is below the floor
//               or nothing was measured; with a path filter the figures are shown but not checked.
//   --isolation=process  every file in a process of its own (the default shares processes, below,
//               with or without --coverage)
// TRELLIS_TEST_DURATIONS=<file>: also write the seconds each test file took, slowest first
//               (scripts/test-file-durations.mjs; <file>.shared-1 and .shared-2 for the shared
//               processes; the Fastify 5 ecosystem pass to <file>.v5*).
//
// Shared processes: starting a process through tsx and loading trellis from src/ costs about 0.7 s of
// CPU, more than most test files' own work. So the files run in two processes (one per core), each
// importing its half of the files: tsx, src/ and the packages load once per process (node:test's
// --experimental-test-isolation=none from Node 22.8; on Node 20 a made test file that imports the
// half), and beside them a third lane runs the files that need a process of their own, one at a
// time. A file needs one when its source shows it: it reads process warnings (trellis emits each
// deprecation once per process), sets process.env, listens to process events or exits, mocks modules
// or reads the module cache (OWN_PROCESS), or it says so with a `test-isolation: process` comment
// (with its reason).
// The files of test/package/ install the package as `npm pack` makes it (test/package/packed.ts): the
// pack and the fixtures' installs run beside the lanes from the start, and those files run once it
// is done, in a lane of their own (a shared process, then the ones that need a process of their own),
// so that neither the pack waits for the lanes nor the lanes for the pack.
// At the end: the totals of every test process of the run (# tests, pass, fail, ...).
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, relative } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { linkSuiteDeps } from './suite-deps.mjs'

const root = new URL('..', import.meta.url).pathname
function collect (dir, out) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) collect(full, out)
    else if (/\.test\.(ts|mts|cts|mjs|cjs|js)$/.test(name)) out.push(relative(root, full))
  }
  return out
}
const argv = process.argv.slice(2)
const coverage = argv.includes('--coverage')
const excludes = argv.filter((a) => a.startsWith('--exclude=')).map((a) => a.slice('--exclude='.length))
const nodeLine = argv.includes('--node-line')
const lineDependent = argv.includes('--line-dependent')
// c8's branch total depends on how the files are split into processes (shared: 258 fewer branches
// counted, all of them covered ones; the same uncovered lines, functions and branches): the branch
// floor of .c8rc.json is measured with the shared processes, as `npm test` runs on Node 24
// (their branch count moves by about a dozen between runs of one commit)
const ownProcessOnly = argv.includes('--isolation=process')
const filters = argv.filter((a) => a !== '--coverage' && a !== '--passes' && a !== '--node-line' && a !== '--line-dependent' && !a.startsWith('--isolation=') && !a.startsWith('--exclude='))
const NODE_LINE_DIRS = ['test/package/', 'test/cli/', 'test/production/']
const SOCKET = /\.listen\(|createConnection\(|\bconnect\(|['"]node:(http|http2|https|net|tls)['"]/
// a file whose verdict is another program's (tsc, Deno) or the documents' text says so in a comment,
// `node-line: independent`, with its reason: the older lines' passes leave it out
const LINE_INDEPENDENT = /node-line: independent/
const sources = new Map()
/** A test file's source, read once (the filters below and the process split read it). */
const sourceOf = (f) => {
  if (!sources.has(f)) sources.set(f, readFileSync(join(root, f), 'utf8'))
  return sources.get(f)
}
const lineIndependent = (f) => LINE_INDEPENDENT.test(sourceOf(f))
/** Whether a test file belongs to the Node-line pass (--node-line). */
const dependsOnNodeLine = (f) => !lineIndependent(f) && (NODE_LINE_DIRS.some((d) => f.startsWith(d)) || SOCKET.test(sourceOf(f)))
const files = collect(join(root, 'test'), []).sort()
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .filter((f) => !excludes.some((x) => f.includes(x)))
  .filter((f) => !nodeLine || dependsOnNodeLine(f))
  .filter((f) => !lineDependent || !lineIndependent(f))
if (files.length === 0) { console.error('no test files matched'); process.exit(1) }
// the runner's limit holds for a test without its own and, a process per file, for the file as a
// whole: 120 s, so that a file of several legitimate multi-second steps (the package tests' tsc and npm
// runs) is not stopped on a slower or busier machine, while a hang still ends the run
const FILE_TIMEOUT_MS = 120_000
/** node's arguments for a test process: `files` at a time, each limited to FILE_TIMEOUT_MS unless `limited` is false. */
const testArgs = (files, limited = true) => ['--import', 'tsx', '--test', `--test-concurrency=${files}`, ...(limited ? [`--test-timeout=${FILE_TIMEOUT_MS}`] : [])]
const durations = process.env.TRELLIS_TEST_DURATIONS
/** The reporter flags: node's default, plus the per-file durations when asked. */
const reporters = (to) => to === undefined || to === ''
  ? []
  : ['--test-reporter', process.stdout.isTTY ? 'spec' : 'tap', '--test-reporter-destination', 'stdout',
      '--test-reporter', join(root, 'scripts', 'test-file-durations.mjs'), '--test-reporter-destination', to]
// ECOSYSTEM_LINE set by the caller (npm run test:ecosystem-on-fastify) picks one line: no second pass
const ecosystemV5 = process.env.ECOSYSTEM_LINE === undefined ? files.filter((f) => f.startsWith('test/ecosystem/')) : []
const ecosystemFetch = ecosystemV5.filter((f) => sourceOf(f).includes('.inject('))

// node:test runs the files of one process together from Node 22.8 (the flag is accepted under its
// experimental name by every line since)
const [major, minor] = process.versions.node.split('.').map(Number)
const isolationFlag = major > 22 || (major === 22 && minor >= 8)
const canShare = !ownProcessOnly
/**
 * The arguments of a shared process over `half`: node:test's own flag where it has one; before Node
 * 22.8 (Node 20) one test file of the run's making that imports each file of the half inside a suite
 * named after it, with the runner's time limit, so that their tests run in one process and each file
 * is limited, timed (TRELLIS_TEST_DURATIONS) and reported as a file of its own (the made file itself
 * has no limit: its files have theirs).
 */
function sharedFiles (half, i) {
  if (isolationFlag) return ['--experimental-test-isolation=none', ...half]
  const dir = join(root, 'node_modules', '.cache', 'trellis-shared-tests')
  mkdirSync(dir, { recursive: true })
  const made = join(dir, `shared-${process.pid}-${i + 1}.test.mjs`)
  writeFileSync(made, "import { describe } from 'node:test'\n" + half.map((f) =>
    `describe(${JSON.stringify(f)}, { timeout: ${FILE_TIMEOUT_MS} }, async () => { await import(${JSON.stringify(pathToFileURL(join(root, f)).href)}) })\n`).join(''))
  madeFiles.push(made)
  return [made]
}
/** The files sharedFiles made, removed when their pass ends. */
const madeFiles = []
const OWN_PROCESS = new RegExp([
  'emitWarning', "'warning'", 'FSTDEP', 'TRL[A-Z]+\\d{3}', 'DeprecationWarning', // warnings: once per process
  'process\\.env\\.\\w+ *= *[^=]', 'process\\.env\\[[^\\]]*\\] *= *[^=]', 'delete process\\.env', 'process\\.chdir',
  'process\\.exitCode', 'process\\.exit\\(', 'process\\.(on|once|removeAllListeners|prependListener)\\(',
  'mock\\.(module|method|timers)', 'require\\.cache', 'test-isolation: process'
].join('|'))
/** Whether a test file needs a process of its own (above). */
const needsOwnProcess = (f) => OWN_PROCESS.test(sourceOf(f))

const totals = { tests: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 }
/** Runs one node:test process; its output goes out as it comes (live) or when it ends. */
function runProcess (args, env, live) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root, env })
    let text = ''
    const take = (to) => (d) => { if (live) to.write(d); text += d }
    child.stdout.on('data', take(process.stdout))
    child.stderr.on('data', take(process.stderr))
    child.on('close', (code, signal) => {
      if (!live) process.stdout.write(text)
      // the summary of node's reporters: `ℹ tests 12` (spec) or `# tests 12` (tap)
      for (const [, key, n] of text.matchAll(/^(?:\u2139|#) (tests|pass|fail|cancelled|skipped|todo) (\d+)$/gm)) totals[key] += Number(n)
      resolve(code ?? (signal ? 1 : 0))
    })
  })
}
/**
 * One pass over `list`. Where processes can be shared: the two shared processes and, beside them, the
 * files that need a process of their own, one at a time (a shared process spends much of its time
 * waiting on the children its tests start, tsc, npm and servers, so a third lane fills the cores);
 * elsewhere every file in a process of its own, two at a time. test/package/'s files, if any, in the
 * lane of packageLane beside them.
 */
async function runPass (list, env, durationsTo) {
  // test/package/: after the pack, in a lane of their own (packageLane)
  const packaged = list.filter(isPackageFile)
  const rest = list.filter((f) => !isPackageFile(f))
  const { own, shared } = byProcess(rest)
  // dealt alternately: each process gets a share of every folder
  const halves = [shared.filter((_, i) => i % 2 === 0), shared.filter((_, i) => i % 2 === 1)].filter((h) => h.length > 0)
  const lanes = []
  if (halves.length === 0) {
    if (own.length > 0) lanes.push(runProcess([...testArgs(2), ...reporters(durationsTo), ...own], env, true))
  } else {
    console.log(`# ${shared.length} files in ${halves.length} shared processes, beside them ${own.length} in processes of their own` +
      (packaged.length > 0 ? ` and ${packaged.length} of test/package/ once the package is packed` : ''))
    // a made file (Node 20) has no limit of its own: each of its files has one
    const sharedArgs = testArgs(2, isolationFlag)
    lanes.push(...halves.map((half, i) => runProcess(
      [...sharedArgs, ...reporters(durationsTo && `${durationsTo}.shared-${i + 1}`), ...sharedFiles(half, i)], env, i === 0)))
    if (own.length > 0) lanes.push(runProcess([...testArgs(1), ...reporters(durationsTo), ...own], env, false))
  }
  if (packaged.length > 0) lanes.push(packageLane(packaged, env, durationsTo, lanes.length === 0))
  const codes = await Promise.all(lanes)
  for (const made of madeFiles.splice(0)) rmSync(made, { force: true })
  return codes.find((c) => c !== 0) ?? 0
}

const isPackageFile = (f) => f.startsWith('test/package/')
/** `files` split into those that need a process of their own and those that can share one (none where processes cannot be shared). */
function byProcess (files) {
  const own = canShare ? files.filter(needsOwnProcess) : files
  return { own, shared: canShare ? files.filter((f) => !own.includes(f)) : [] }
}
/**
 * The lane of test/package/'s files: the pack and the fixtures' installs (test/package/packed.ts, off
 * coverage: it builds and installs copies of the package, not src/), then the files, those that can
 * share a process in one, then the others one at a time. Packing that fails is reported by the files.
 */
async function packageLane (files, env, durationsTo, live) {
  // the key stays, undefined: Node hands a child whose env lacks it this process's NODE_V8_COVERAGE
  const packEnv = { ...env, NODE_V8_COVERAGE: undefined }
  const packing = await runOutput(process.execPath, ['--import', 'tsx', join('test', 'package', 'packed.ts')], packEnv)
  process.stdout.write(packing)
  const { own, shared } = byProcess(files)
  let code = 0
  if (shared.length > 0) {
    code = await runProcess([...testArgs(2, isolationFlag), ...reporters(durationsTo && `${durationsTo}.package`), ...sharedFiles(shared, 2)], env, live)
  }
  if (own.length > 0) {
    const ownCode = await runProcess([...testArgs(canShare ? 1 : 2), ...reporters(durationsTo && `${durationsTo}.package-own`), ...own], env, live)
    code ||= ownCode
  }
  return code
}
/** A command's output (stdout and stderr, as they came), when it ends. */
function runOutput (cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], cwd: root, env })
    let text = ''
    child.stdout.on('data', (d) => { text += d })
    child.stderr.on('data', (d) => { text += d })
    child.on('error', (err) => { text += `${err.message}\n` })
    child.on('close', () => resolve(text))
  })
}

/** The passes, one after the other (under c8 when --coverage: it sees every process they start). */
async function runPasses () {
  let status = await runPass(files, process.env, durations)
  if (ecosystemV5.length > 0) {
    console.log(`# test/ecosystem on the Fastify 5 line (ECOSYSTEM_LINE=5): ${ecosystemV5.length} files`)
    const code = await runPass(ecosystemV5, { ...process.env, ECOSYSTEM_LINE: '5' }, durations && `${durations}.v5`)
    status ||= code
  }
  if (ecosystemFetch.length > 0) {
    console.log(`# test/ecosystem through app.fetch (ECOSYSTEM_TRANSPORT=fetch): ${ecosystemFetch.length} files`)
    const code = await runPass(ecosystemFetch, { ...process.env, ECOSYSTEM_TRANSPORT: 'fetch' }, durations && `${durations}.fetch`)
    status ||= code
  }
  console.log(`# all test processes of this run: ${Object.entries(totals).map(([k, n]) => `${k} ${n}`).join(', ')}`)
  return status
}
/**
 * Exits once everything written to stdout is out (awaited: nothing after it runs): on a pipe (CI's
 * log) stdout is written asynchronously, and process.exit() at once would cut off the output of the
 * lanes printed last.
 */
function exitAfterOutput (code) {
  return new Promise(() => { process.stdout.write('', () => process.exit(code)) })
}
if (argv.includes('--passes')) await exitAfterOutput(await runPasses())
// the packages of test/suite-deps (fastify, the plugins' majors, OTel SDKs, jest): installed on first
// use into a cache outside the repository, linked into node_modules (scripts/suite-deps.mjs)
linkSuiteDeps()
let status
if (coverage) {
  const c8 = createRequire(import.meta.url).resolve('c8/bin/c8.js')
  const args = [c8, ...(filters.length > 0 || nodeLine ? ['--no-check-coverage'] : []), process.execPath, fileURLToPath(import.meta.url), '--passes', ...(nodeLine ? ['--node-line'] : []), ...(lineDependent ? ['--line-dependent'] : []), ...(ownProcessOnly ? ['--isolation=process'] : []), ...excludes.map((x) => `--exclude=${x}`), ...filters]
  status = spawnSync(process.execPath, args, { stdio: 'inherit', cwd: root }).status ?? 1
} else status = await runPasses()
if (coverage && status === 0) {
  // c8 passes its floor when it measured nothing (0 of 0 lines): a run that mapped no src/ file fails
  const summary = JSON.parse(readFileSync(join(root, 'coverage', 'coverage-summary.json'), 'utf8'))
  if (!(summary.total.lines.total > 0)) {
    console.error('coverage: no line of src/ was measured (are the source maps of tsx still read?)')
    await exitAfterOutput(1)
  }
}
await exitAfterOutput(status)
