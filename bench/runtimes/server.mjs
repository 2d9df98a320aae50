// One server of bench/runtimes.mjs, run by node, bun or deno: BENCH_KIND picks the framework
// (trellis, hono, elysia, bare), BENCH_DEPS the folder hono and elysia are installed in
// (test/runtimes' cache). It listens on a free loopback port and prints `READY <port>`; SIGTERM
// ends it (with --cpu-prof the profile is written then). Three routes, the same in each:
//   GET /        {hello:'world'}, a response schema where the framework has one
//   POST /items  a JSON body validated ({name: string, qty?: integer >= 1}), echoed
//   GET /items   100 items with a response schema where the framework has one
import { createRequire } from 'node:module'
import { join } from 'node:path'

const kind = process.env.BENCH_KIND ?? 'trellis'
const runtime = typeof globalThis.Bun !== 'undefined' ? 'bun' : typeof globalThis.Deno !== 'undefined' ? 'deno' : 'node'
const root = process.cwd()
const deps = createRequire(join(process.env.BENCH_DEPS ?? root, 'package.json'))

const ITEMS = Array.from({ length: 100 }, (_, i) => ({ id: i, name: `item ${i}`, price: i * 1.5, inStock: i % 2 === 0, tags: ['a', 'b'] }))
const itemSchema = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, price: { type: 'number' }, inStock: { type: 'boolean' }, tags: { type: 'array', items: { type: 'string' } } } }
const bodySchema = { type: 'object', required: ['name'], properties: { name: { type: 'string' }, qty: { type: 'integer', minimum: 1 } } }
const validBody = (b) => b !== null && typeof b === 'object' && typeof b.name === 'string' && (b.qty === undefined || (Number.isInteger(b.qty) && b.qty >= 1))

function ready (port) { console.log(`READY ${port}`) }
function onTerm (stop) {
  const end = async () => { try { await stop() } finally { process.exit(0) } }
  process.on('SIGTERM', end)
  process.on('SIGINT', end)
}

async function trellis () {
  const app = deps(join(root, 'dist', 'entry', 'index.cjs'))({ runtimeServer: process.env.BENCH_RUNTIME_SERVER ?? 'auto' })
  app.get('/', { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } }, async () => ({ hello: 'world' }))
  app.post('/items', { schema: { body: bodySchema, response: { 200: bodySchema } } }, async (req) => req.body)
  app.get('/items', { schema: { response: { 200: { type: 'array', items: itemSchema } } } }, async () => ITEMS)
  await app.listen({ port: 0, host: '127.0.0.1' })
  onTerm(() => app.close())
  ready(app.server.address().port)
}

function serveFetch (fetch) {
  if (runtime === 'bun') {
    const server = globalThis.Bun.serve({ port: 0, hostname: '127.0.0.1', fetch, development: false })
    onTerm(() => server.stop(true))
    ready(server.port)
  } else {
    const server = globalThis.Deno.serve({ port: 0, hostname: '127.0.0.1', onListen () {} }, fetch)
    onTerm(() => server.shutdown())
    ready(server.addr.port)
  }
}

function hono () {
  const { Hono } = deps('hono')
  const { validator } = deps('hono/validator')
  const app = new Hono()
  app.get('/', (c) => c.json({ hello: 'world' }))
  app.post('/items', validator('json', (value, c) => validBody(value) ? value : c.json({ message: 'invalid body' }, 400)), (c) => c.json(c.req.valid('json')))
  app.get('/items', (c) => c.json(ITEMS))
  serveFetch(app.fetch)
}

function elysia () {
  const { Elysia, t } = deps('elysia')
  const Item = t.Object({ id: t.Integer(), name: t.String(), price: t.Number(), inStock: t.Boolean(), tags: t.Array(t.String()) })
  const Body = t.Object({ name: t.String(), qty: t.Optional(t.Integer({ minimum: 1 })) })
  const app = new Elysia()
    .get('/', () => ({ hello: 'world' }), { response: t.Object({ hello: t.String() }) })
    .post('/items', ({ body }) => body, { body: Body, response: Body })
    .get('/items', () => ITEMS, { response: t.Array(Item) })
    .listen({ port: 0, hostname: '127.0.0.1' })
  onTerm(() => app.stop(true))
  ready(app.server.port)
}

function bare () {
  serveFetch(async (request) => {
    const { pathname } = new URL(request.url)
    if (pathname === '/') return Response.json({ hello: 'world' })
    if (pathname === '/items' && request.method === 'POST') {
      let body
      try { body = await request.json() } catch { return Response.json({ message: 'bad json' }, { status: 400 }) }
      return validBody(body) ? Response.json(body) : Response.json({ message: 'invalid body' }, { status: 400 })
    }
    if (pathname === '/items') return Response.json(ITEMS)
    return new Response(null, { status: 404 })
  })
}

const kinds = { trellis, hono, elysia, bare }
await kinds[kind]()
