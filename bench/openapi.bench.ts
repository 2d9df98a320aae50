/**
 * CPU time to build the OpenAPI document of a synthetic application: N plugin contexts, each with
 * its own `Local` schema (7 distinct contents) and 10 routes, over 30 root schemas referring to each
 * other. The document is built once per application (first `app.openapi()` or request after ready()).
 *
 *   npm run bench:openapi -- 200     (contexts; default 200)
 */
import trellis from '../src/index'
import { routeTable } from '../src/context/route-table'
import { buildDocument } from '../src/openapi/document'

async function main (): Promise<void> {
  const contexts = Number(process.argv[2] ?? 200)
  const app = trellis()
  for (let i = 0; i < 30; i++) app.addSchema({ $id: `S${i}`, type: 'object', properties: { a: { type: 'string' }, next: { $ref: `S${(i + 1) % 30}#` } } })
  for (let c = 0; c < contexts; c++) {
    app.register(async (child) => {
      child.addSchema({ $id: 'Local', type: 'object', properties: { n: { type: 'integer', maximum: c % 7 }, s: { $ref: 'S1#' } } })
      for (let r = 0; r < 10; r++) {
        child.post(`/c${c}/r${r}/:id`, { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } }, body: { $ref: 'Local#' }, response: { 200: { $ref: `S${r}#` } } } }, async () => ({}))
      }
    })
  }
  await app.ready()
  const table = routeTable(app)
  const runs: number[] = []
  let doc: Record<string, any> = {}
  for (let i = 0; i < 5; i++) {
    const before = process.cpuUsage()
    doc = buildDocument(table, {})
    const used = process.cpuUsage(before)
    runs.push((used.user + used.system) / 1000)
  }
  runs.sort((a, b) => a - b)
  console.log(`${contexts} contexts, ${Object.keys(doc.paths).length} paths, ${Object.keys(doc.components.schemas).length} components, ${JSON.stringify(doc).length} bytes`)
  console.log(`build: median ${runs[2].toFixed(0)} ms CPU (min ${runs[0].toFixed(0)}, max ${runs[4].toFixed(0)}) over 5 builds`)
  await app.close()
}
void main()
