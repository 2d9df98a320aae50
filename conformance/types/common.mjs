// What the two type-test runners (run.mjs: fastify@4.3.0's tsd tests, run-5.mjs: fastify@5.12.8's
// tstyche tests) share: TypeScript with the checker's identity relation, a file's result record,
// the per-file table, and the ratchet (check, --update, summary line).
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire, Module } from 'node:module'
import { dirname } from 'node:path'

const require = createRequire(import.meta.url)

/** TypeScript with the checker's identity relation exposed (tsd relies on it; it is internal). */
export function loadTypeScript () {
  const file = require.resolve('typescript')
  const source = readFileSync(file, 'utf8')
  const hook = '\n    isTypeAssignableTo,\n'
  if (!source.includes(hook)) throw new Error('cannot expose isTypeIdenticalTo in this TypeScript version')
  const m = new Module(file)
  m.filename = file
  m.paths = Module._nodeModulePaths(dirname(file))
  m._compile(source.replace(hook, hook + '    isTypeIdenticalTo,\n'), file)
  return m.exports
}

/** A file's record: its assertions, how many hold, and the errors outside any assertion (`nodes`). */
export function fileResult (ts, sf, name, nodes, diagnostics, held, failures) {
  const inside = (d, node) => d.start !== undefined && d.start >= node.getStart(sf) && d.start < node.end
  const other = diagnostics.filter((d) => !nodes.some((node) => inside(d, node)))
  return {
    assertions: nodes.length,
    held,
    otherErrors: other.length,
    failures,
    other: other.map((d) => `${name}:${d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 160)}`)
  }
}

export function table (results) {
  const rows = Object.entries(results)
  const total = rows.reduce((a, [, r]) => a + r.assertions, 0)
  const held = rows.reduce((a, [, r]) => a + r.held, 0)
  const lines = ['| file | hold / assertions | % | other errors |', '|---|---:|---:|---:|']
  for (const [name, r] of rows) lines.push(`| ${name} | ${r.held} / ${r.assertions} | ${r.assertions ? (100 * r.held / r.assertions).toFixed(1) : '—'} | ${r.otherErrors} |`)
  lines.push(`| **total** | **${held} / ${total}** | **${(100 * held / total).toFixed(1)}** | ${rows.reduce((a, [, r]) => a + r.otherErrors, 0)} |`)
  return lines.join('\n')
}

/**
 * Prints what was asked (--table, --verbose), checks the committed ratchet (a file may not hold
 * fewer assertions, nor have more errors outside them), raises it with --update (never lowers), and
 * prints the summary. Returns the exit status.
 */
export function finishRun ({ results, args, ratchetFile, againstFastify, label, summary, description, extra = {} }) {
  if (args.has('--table')) console.log(table(results))
  if (args.has('--verbose')) for (const r of Object.values(results)) for (const line of [...r.failures, ...r.other.map((o) => 'other error ' + o)]) console.log(line)
  const ratchet = !againstFastify && existsSync(ratchetFile) ? JSON.parse(readFileSync(ratchetFile, 'utf8')) : { files: {} }
  let failed = false
  for (const [name, r] of Object.entries(results)) {
    const min = ratchet.files[name]
    if (min === undefined) continue
    if (r.held < min.held) { failed = true; console.error(`${label}: ${name} holds ${r.held} assertions, committed ${min.held}`) }
    if (r.otherErrors > min.maxOtherErrors) { failed = true; console.error(`${label}: ${name} has ${r.otherErrors} errors outside assertions, committed at most ${min.maxOtherErrors}`) }
  }
  const total = Object.values(results).reduce((a, r) => a + r.assertions, 0)
  const held = Object.values(results).reduce((a, r) => a + r.held, 0)
  if (args.has('--update') && !againstFastify) {
    const files = {}
    for (const [name, r] of Object.entries(results)) {
      const old = ratchet.files[name] ?? { held: 0, maxOtherErrors: Infinity }
      files[name] = { held: Math.max(old.held, r.held), assertions: r.assertions, maxOtherErrors: Math.min(old.maxOtherErrors, r.otherErrors) }
    }
    writeFileSync(ratchetFile, JSON.stringify({ description, ...extra, files }, null, 2) + '\n')
  }
  console.error(`${summary}: ${held} / ${total} assertions hold (${(100 * held / total).toFixed(1)}%), ${Object.keys(results).length} files`)
  return failed ? 1 : 0
}
