// trellis demo: the spec's worked scenario (encapsulation), a validated POST route and a response
// schema that drops an undeclared property. Run with `npm start` (builds first), then paste the
// printed curl lines, or open the docs page (/documentation, Swagger UI served from the local
// swagger-ui-dist package) and use "try it out". Env: PORT (default 3000; 0 = any free port), HOST (default 127.0.0.1),
// API_KEY (the bearer key of context A; a demo key is used and printed when unset).
import trellis from '../dist/entry/index.mjs'
import demo, { DEMO_KEY } from './demo-app.mjs'

const apiKey = process.env.API_KEY || DEMO_KEY
const port = process.env.PORT === undefined || process.env.PORT === '' ? 3000 : Number(process.env.PORT)
const host = process.env.HOST || '127.0.0.1'

const app = trellis()
// the application itself (examples/demo-app.mjs), in the root context
await demo(app, { apiKey })

await app.listen({ port, host })
const address = app.server.address()
const base = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`

if (apiKey === DEMO_KEY) console.log(`API_KEY not set: using the demo key "${DEMO_KEY}"`)
console.log('routes:')
console.log(app.printRoutes())
console.log('try:')
const q = (s) => `'${s.replace(/'/g, "'\\''")}'`
const json = "-H 'content-type: application/json'"
for (const line of [
  `curl -i ${base}/one                                  # 401: missing authorization header`,
  `curl -i -H ${q(`authorization: Bearer ${apiKey}`)} ${base}/one   # 200 {"answer":42}`,
  `curl -i ${base}/two                                  # 200 {"answer":42,"foo":"foo"}`,
  `curl -i ${base}/three                                # 200 {"answer":42,"foo":"foo","bar":"bar"}`,
  `curl -i ${json} -d ${q('{"name":"pen","price":"9.5"}')} ${base}/items   # 201, price coerced, quantity/tags defaulted`,
  `curl -i ${json} -d ${q('{"price":3}')} ${base}/items                 # 400: body must have required property 'name'`,
  `curl -i ${base}/users/1                              # 200 {"id":1,"name":"Ada"} (passwordHash dropped)`,
  `curl -s ${base}/documentation/json                   # the OpenAPI 3.1 document (also /documentation/yaml)`
]) console.log('  ' + line)
console.log(`docs: ${base}/documentation`)
console.log(`listening on ${base}`)

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    app.close().then(() => process.exit(0), () => process.exit(1))
  })
}
