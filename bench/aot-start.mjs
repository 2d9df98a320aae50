// Start with and without a `trellis build` (docs/deployment.md, "Ahead-of-time build"): for each
// route count, an application whose every route has a params, querystring, body and response
// schema (distinct per route) is built once (`dist/bin/trellis.js build`), then started in fresh
// processes, interleaved: compiling everything, and with TRELLIS_AOT_DIR. Each process reports
// the time from its first line to `listen()` resolving (wall and CPU of the process), to its first
// answered request (inject), and RSS then. Medians with min–max over the rounds.
//
//   npm run build && node bench/aot-start.mjs [--routes 10,1000] [--rounds 5]
//
// `npm run bench:coldstart` compares the same against Fastify; this one only the two trellis starts.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './stats.mjs'
import { machine } from './results.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const arg = (name, fallback) => { const i = process.argv.indexOf(name); return i === -1 ? fallback : process.argv[i + 1] }
const routeCounts = arg('--routes', '10,1000').split(',').map(Number)
const rounds = Number(arg('--rounds', '5'))

const APP = `module.exports = async function app (app) {
  const n = Number(process.env.AOT_BENCH_ROUTES)
  for (let i = 0; i < n; i++) {
    app.post('/r' + i + '/:id', { schema: {
      params: { type: 'object', properties: { id: { type: 'integer', minimum: i % 3 } }, required: ['id'] },
      querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 10 + (i % 40) }, limit: { type: 'integer', maximum: 100 + i } } },
      body: { type: 'object', required: ['name' + i, 'count'], properties: { ['name' + i]: { type: 'string', maxLength: 20 + (i % 50) }, count: { type: 'integer', minimum: i % 7, maximum: 1000 + i }, tags: { type: 'array', maxItems: 5 + (i % 5), items: { type: 'string' } }, when: { type: 'string', format: 'date-time' } } },
      response: { 200: { type: 'object', properties: { ['id' + i]: { type: 'integer' }, name: { type: 'string' }, ok: { type: 'boolean' }, items: { type: 'array', items: { type: 'object', properties: { k: { type: 'string' }, v: { type: 'number' } } } } } } }
    } }, async () => ({ ['id' + i]: 1, name: 'x', ok: true, items: [] }))
  }
}
`
const CHILD = `const t0 = performance.now(); const c0 = process.cpuUsage()
const trellis = require(${JSON.stringify(join(root, 'dist', 'entry', 'index.cjs'))})
const t1 = performance.now()
const app = trellis({ logger: false })
app.register(require('./app.cjs'))
app.listen({ port: 0, host: '127.0.0.1' }).then(async () => {
  const t2 = performance.now(); const c = process.cpuUsage(c0)
  const res = await app.inject({ method: 'POST', url: '/r1/1?q=a', payload: { name1: 'x', count: 3 } })
  const t3 = performance.now()
  process.stdout.write(JSON.stringify({ require: t1 - t0, listen: t2 - t0, cpu: (c.user + c.system) / 1000, first: t3 - t0, rss: process.memoryUsage().rss / 1048576, status: res.statusCode }))
  await app.close()
})
`

const dir = mkdtempSync(join(tmpdir(), 'trellis-aot-bench-'))
writeFileSync(join(dir, 'app.cjs'), APP)
writeFileSync(join(dir, 'child.cjs'), CHILD)
const fmt = (xs, unit = 'ms') => `${Math.round(median(xs))} ${unit} (${Math.round(Math.min(...xs))}–${Math.round(Math.max(...xs))})`
const rows = []
try {
  for (const n of routeCounts) {
    const out = join(dir, `build-${n}`)
    const env = { ...process.env, AOT_BENCH_ROUTES: String(n), TRELLIS_AOT_DIR: '', TRELLIS_SCHEMA_CACHE_DIR: '' }
    const t = performance.now()
    execFileSync(process.execPath, [join(root, 'dist', 'bin', 'trellis.js'), 'build', join(dir, 'app.cjs'), '--out', out], { env, stdio: 'ignore' })
    const buildMs = performance.now() - t
    const runs = { compile: [], build: [] }
    for (let r = 0; r < rounds; r++) {
      for (const subject of ['compile', 'build']) {
        const result = JSON.parse(execFileSync(process.execPath, [join(dir, 'child.cjs')], { env: { ...env, TRELLIS_AOT_DIR: subject === 'build' ? out : '' }, cwd: dir, encoding: 'utf8' }))
        if (result.status !== 200) throw new Error(`${subject}: first request answered ${result.status}`)
        runs[subject].push(result)
      }
    }
    for (const subject of ['compile', 'build']) {
      const xs = runs[subject]
      rows.push(`| ${n} | ${subject === 'build' ? 'with the build' : 'compiling'} | ${fmt(xs.map((x) => x.listen))} | ${fmt(xs.map((x) => x.cpu))} | ${fmt(xs.map((x) => x.first))} | ${fmt(xs.map((x) => x.rss), 'MiB')} |`)
    }
    const ratio = median(runs.build.map((x) => x.cpu)) / median(runs.compile.map((x) => x.cpu))
    rows.push(`| ${n} | build / compiling (CPU) | | ${ratio.toFixed(2)} | | |`)
    process.stderr.write(`${n} routes: trellis build took ${(buildMs / 1000).toFixed(1)} s\n`)
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
const m = machine()
console.log(`node bench/aot-start.mjs --routes ${routeCounts.join(',')} --rounds ${rounds}; ${m.text}; Node ${process.version}; ${new Date().toISOString()}\n`)
console.log('| routes | start | to listen (wall) | to listen (CPU) | first answer (wall) | RSS |\n|---:|---|---:|---:|---:|---:|')
console.log(rows.join('\n'))
