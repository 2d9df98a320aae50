// A node:test reporter (scripts/run-tests.mjs adds it when TRELLIS_TEST_DURATIONS names a file): the
// seconds each test file's top-level tests took, slowest first, to see where the suite's time goes.
// Files run two at a time, so the column adds up to about twice the wall time of the run.
export default async function * fileDurations (source) {
  const files = new Map()
  for await (const event of source) {
    if ((event.type === 'test:pass' || event.type === 'test:fail') && event.data.nesting === 0) {
      const file = event.data.file ?? '(unknown file)'
      files.set(file, (files.get(file) ?? 0) + (event.data.details?.duration_ms ?? 0))
    }
  }
  const rows = [...files].sort((a, b) => b[1] - a[1])
  const total = rows.reduce((sum, [, ms]) => sum + ms, 0)
  yield rows.map(([file, ms]) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${file}`).join('\n') + `\n${(total / 1000).toFixed(1).padStart(7)} s  (all files)\n`
}
