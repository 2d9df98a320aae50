// Where the bench scripts keep what they measured. A run prints its tables and writes them to
// bench/results/<name>-node<major>-<UTC date and time>.md (the tables, with the command, machine,
// Node version and date of the run) and a .json beside it (the raw figures, every round, for
// bench/pool-rounds.mjs and other tools). bench/results/ is gitignored; no script writes into docs/:
// docs/benchmarks.md quotes chosen runs by hand, with their command, machine and date.
//
//   BENCH_RESULTS_DIR=/some/dir      write the results files there instead
import { mkdirSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus, totalmem } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

export const RESULTS_DIR = process.env.BENCH_RESULTS_DIR || join(root, 'bench', 'results')

/** The machine, as a results file states it: cores, CPU model, memory. */
export function machine () {
  const nproc = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length
  const cpu = cpus()[0]?.model?.trim() ?? 'unknown cpu'
  const memGiB = totalmem() / 2 ** 30
  return { nproc, cpu, memGiB: Math.round(memGiB * 10) / 10, text: `${nproc} cores (${cpu}), ${memGiB.toFixed(0)} GiB` }
}

/** `2026-11-23T183512Z`: sorts by time, no characters a file system minds. */
export function stamp (date) {
  return date.toISOString().slice(0, 19).replace(/[-:]/g, '').replace(/^(\d{4})(\d{2})(\d{2})/, '$1-$2-$3') + 'Z'
}

/**
 * The head of a results file: its title, the command (with the script that describes the method),
 * and the run's date, length, machine, Node version and load average before and after.
 */
export function resultsHead ({ title, command, script, started, host, loadBefore, loadAfter }) {
  const load = (xs) => xs.map((x) => x.toFixed(2)).join(' ')
  return [
    `# ${title}`,
    '',
    `Command: \`${command}\` (${script}; how it measures is described at the top of that file).`,
    '',
    `Run: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC, ${Math.round((Date.now() - started.getTime()) / 1000)} s; ${host.text}; ` +
      `node ${process.version}; load average before/after ${load(loadBefore)} / ${load(loadAfter)}.`
  ].join('\n')
}

/**
 * Writes `<name>-node<major>-<stamp>.md` and `.json` into RESULTS_DIR and prints where.
 * `nodeVersion` is the Node the measured code ran on (`v24.21.0`), `started` when the run began.
 */
export function writeResults ({ name, nodeVersion, started, markdown, data }) {
  const major = String(nodeVersion).replace(/^v/, '').split('.')[0]
  const base = join(RESULTS_DIR, `${name}-node${major}-${stamp(started)}`)
  mkdirSync(RESULTS_DIR, { recursive: true })
  writeFileSync(base + '.md', markdown.replace(/\s*$/, '\n'))
  writeFileSync(base + '.json', JSON.stringify(data, null, 2) + '\n')
  const shown = (file) => relative(process.cwd(), file).startsWith('..') ? file : relative(process.cwd(), file)
  console.log(`\nwrote ${shown(base + '.md')} and .json`)
  return { md: base + '.md', json: base + '.json' }
}
