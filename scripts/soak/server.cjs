// The soak's server process: the built trellis (dist/) with mixed routes. Answers 'stats' messages
// (memory, event-loop delay) and 'close' over IPC; counts its own 5xx answers and logged errors.
'use strict'
const { monitorEventLoopDelay } = require('node:perf_hooks')
const trellis = require('../../dist/entry/index.cjs')
const bearerAuth = require('../../dist/entry/bearer-auth.cjs')

const app = trellis()
let serverErrors = 0
app.addHook('onResponse', async (_req, reply) => { if (reply.statusCode >= 500) serverErrors++ })
app.get('/health', async () => ({ ok: true }))
app.post('/echo', { schema: { body: { type: 'object', properties: { name: { type: 'string', maxLength: 1000 } }, required: ['name'] } } }, async (req) => ({ name: req.body.name }))
app.post('/upload', { bodyLimit: 512 * 1024 }, async (req) => ({ size: JSON.stringify(req.body).length }))
app.get('/items/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } }, response: { 200: { type: 'object', properties: { id: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } } } } } }, async (req) => ({ id: req.params.id, tags: ['a', 'b'], hidden: 'x' }))
app.register(async (x) => {
  x.register(bearerAuth, { keys: ['soak-key'] })
  x.get('/data', async () => ({ secret: 1 }))
}, { prefix: '/x' })

const delay = monitorEventLoopDelay({ resolution: 10 })
delay.enable()
process.on('uncaughtException', (err) => { process.send({ type: 'crash', message: String(err && err.stack) }); process.exit(1) })
process.on('message', async (msg) => {
  if (msg === 'stats' || msg === 'stats-gc') {
    // a forced GC (start and end only) so heap figures compare live memory, not garbage
    if (msg === 'stats-gc' && global.gc) global.gc()
    const m = process.memoryUsage()
    process.send({ type: 'stats', rss: m.rss, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers, serverErrors, p99: delay.percentile(99) / 1e6, max: delay.max / 1e6 })
    delay.reset()
  } else if (msg === 'close') {
    await app.close()
    process.exit(0)
  }
})
app.listen({ port: 0, host: '127.0.0.1' }).then(() => process.send({ type: 'listening', port: app.server.address().port }))
