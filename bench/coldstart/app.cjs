'use strict'
const t0 = performance.now()
const cpu0 = process.cpuUsage()
// The measured process of the cold-start benchmark (bench/coldstart.mjs): the first line above is the
// first line of the application's JavaScript. It requires the framework (COLDSTART_FRAMEWORK: a path or
// package name), creates the server with logging off, registers the routes plugin (routes.cjs,
// COLDSTART_ROUTES routes), listens on 127.0.0.1 (an ephemeral port), sends itself one request to the
// last route and checks the answer, then prints one JSON line and exits:
//   start    ms from the process's time origin to the first line (node's own start)
//   require  ms of require(framework)
//   listen   ms from the first line to listen() resolving
//   first    ms from the first line to the first answer read whole
//   cpuStart, cpuListen, cpuFirst   ms of process CPU (user + system, from process start) at the
//            first line, at listen() and at the first answer; cpuRequire: CPU ms of the require
//   rss      bytes of resident memory at the first answer
// The env of the parent selects the variants (TRELLIS_SCHEMA_CACHE_DIR, TRELLIS_AOT_DIR).
const framework = process.env.COLDSTART_FRAMEWORK
const mod = require(framework)
const t1 = performance.now()
const cpu1 = process.cpuUsage()
const factory = typeof mod === 'function' ? mod : mod.default
const http = require('node:http')
const ms = (usage) => (usage.user + usage.system) / 1000

async function main () {
  const app = factory({ logger: false })
  app.register(require('./routes.cjs'))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const t2 = performance.now()
  const cpu2 = process.cpuUsage()
  const n = Number(process.env.COLDSTART_ROUTES ?? 10)
  const i = n - 1
  const port = app.server.address().port
  const body = JSON.stringify({ ['name' + i]: 'cold', count: 8, tags: ['a'], when: '2026-11-25T08:00:00Z' })
  const answer = await new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: `/r${i}/5?q${i}=x&n=3`, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => { text += d })
      res.on('end', () => resolve({ status: res.statusCode, text }))
    })
    req.on('error', reject)
    req.end(body)
  })
  const t3 = performance.now()
  const cpu = process.cpuUsage()
  const rss = process.memoryUsage().rss
  const expected = JSON.stringify({ ['id' + i]: 5, name: 'cold', ok: true, count: 8, items: [{ k: 'a', v: 1 }] })
  if (answer.status !== 200 || answer.text !== expected) throw new Error(`POST /r${i}/5 answered ${answer.status} ${answer.text}`)
  process.stdout.write(JSON.stringify({ start: t0, require: t1 - t0, listen: t2 - t0, first: t3 - t0, cpuStart: ms(cpu0), cpuRequire: ms(cpu1) - ms(cpu0), cpuListen: ms(cpu2), cpuFirst: ms(cpu), rss }) + '\n')
  process.exit(0)
}

main().catch((err) => { process.stderr.write(String(err && err.stack ? err.stack : err) + '\n'); process.exit(1) })
