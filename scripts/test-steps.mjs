// `npm test`: the steps of the whole check, the independent ones side by side (the machine CI runs
// on has 2 cores and most steps keep at most one busy: ESLint, tsc, the ratchets' test files waiting
// on sockets), then each step's wall time and CPU time.
//
//   1. the layer check (seconds: a broken import graph stops everything at once)
//   2. lint  |  type-check, then build
//   3. every test under c8 with the coverage floor (needs the build)  |  the conformance ratchets
//      (two suite files at a time: a suite file mostly waits on its own timers and processes, so two
//      of them beside the tests take about 0.5 core)  |  the type-check cost, then the 4.3 and 5.12
//      type tests (about 40 s of CPU: beside the two others from the start, rather than after the
//      ratchets, whose end would then be the step's)
//
// A step beside another prints its output when it ends (the first of a group prints as it runs), so
// the log stays readable. Every step runs even when one before it in its group failed; a failed
// group stops the later groups; the exit status is 1 when any step failed.
// CPU time: user + system of the step's processes (all it started and waited for), read on Linux
// from /proc (`-` elsewhere): on a machine busy with other work the wall times grow, the CPU times
// much less.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const self = fileURLToPath(import.meta.url)

// `node scripts/test-steps.mjs --step <command...>`: runs one step and prints its CPU seconds last
if (process.argv[2] === '--step') {
  const [cmd, ...args] = process.argv.slice(3)
  const r = spawnSync(cmd, args, { stdio: 'inherit' })
  let cpu = '-'
  if (existsSync('/proc/self/stat')) {
    // fields after the command name: cutime and cstime (children waited for), in clock ticks (USER_HZ: 100 on Linux)
    const fields = readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ')
    cpu = ((Number(fields[13]) + Number(fields[14])) / 100).toFixed(1)
  }
  writeSync(3, cpu) // the runner's pipe for it
  process.exit(r.status ?? 1)
}

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const node = process.execPath
/** The groups, one after the other; the steps of a group side by side. */
const groups = [
  [{ name: 'layer check', cmd: [node, 'scripts/check-layers.mjs', '--types'] }],
  [
    { name: 'lint', cmd: [npm, 'run', 'lint'] },
    { name: 'type-check', cmd: [npm, 'run', 'typecheck'], then: { name: 'build', cmd: [npm, 'run', 'build'] } }
  ],
  [
    { name: 'tests under c8 (coverage floor)', cmd: [node, 'scripts/run-tests.mjs', '--coverage'] },
    { name: 'conformance ratchets', cmd: [node, 'conformance/ratchet.mjs', '--jobs=2'] },
    {
      name: 'type-check cost',
      cmd: [npm, 'run', 'test:types-cost'],
      then: {
        name: 'type tests 4.3',
        cmd: [node, 'conformance/types/run.mjs'],
        then: { name: 'type tests 5.12', cmd: [node, 'conformance/types/run-5.mjs'] }
      }
    }
  ]
]

const rows = []
/** Runs one step; resolves to true when it passed. `live`: its output goes out as it comes. */
function runStep (step, live) {
  return new Promise((resolve) => {
    const t0 = Date.now()
    const out = live ? 'inherit' : 'pipe'
    const child = spawn(node, [self, '--step', ...step.cmd], { stdio: ['ignore', out, out, 'pipe'] })
    let text = ''
    let cpu = ''
    child.stdout?.on('data', (d) => { text += d })
    child.stderr?.on('data', (d) => { text += d })
    child.stdio[3]?.on('data', (d) => { cpu += d })
    child.on('close', (code) => {
      if (!live) process.stdout.write(`\n=== ${step.name} (${code === 0 ? 'ok' : 'FAILED'})\n${text}`)
      rows.push({ name: step.name, wall: (Date.now() - t0) / 1000, cpu: cpu || '-', ok: code === 0 })
      resolve(code === 0)
    })
  })
}
/** A step and the ones chained after it (`then`): a failed step stops its chain. */
async function runChain (step, live) {
  for (let s = step; s !== undefined; s = s.then) {
    console.log(`=== ${s.name}${live ? '' : ' (output when it ends)'}`)
    if (!await runStep(s, live)) return false
  }
  return true
}

let ok = true
const t0 = Date.now()
for (const group of groups) {
  const results = await Promise.all(group.map((step, i) => runChain(step, i === 0)))
  if (results.includes(false)) { ok = false; break }
}
const load = existsSync('/proc/loadavg') ? readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ') : '-'
console.log(`\n=== npm test: step times (wall, CPU user+sys; steps of one group ran side by side; load average at the end: ${load})`)
for (const r of rows) console.log(`${r.name.padEnd(36)} ${r.wall.toFixed(1).padStart(8)} s ${String(r.cpu).padStart(8)} s  ${r.ok ? 'ok' : 'FAILED'}`)
console.log(`${'total'.padEnd(36)} ${((Date.now() - t0) / 1000).toFixed(1).padStart(8)} s`)
process.exit(ok ? 0 : 1)
