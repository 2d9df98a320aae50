// Bun's own convention, run by ./bun-deno.test.ts as `bun test/runtimes/bun-default-export.mjs`:
// the entry module's default export `{ port, hostname, fetch }` is served by Bun itself, with
// trellis' app.fetch taken off the application (detached). PORT comes from the test.
import { createRequire } from 'node:module'
import { join } from 'node:path'

const require = createRequire(join(process.cwd(), 'package.json'))
const app = require(join(process.cwd(), 'dist', 'entry', 'index.cjs'))()
app.get('/', { schema: { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } } }, async (req) => ({ hello: 'world', ip: req.ip, dropped: true }))
app.post('/items', { schema: { body: { type: 'object', required: ['name'], properties: { name: { type: 'string' } } } } }, async (req) => ({ got: req.body.name }))
console.log('READY')

export default { port: Number(process.env.PORT), hostname: '127.0.0.1', fetch: app.fetch }
