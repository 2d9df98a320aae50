/** Application modules the production tests start with `trellis start` (written to temp dirs). */

/** CommonJS: /hello, /pid, /slow?ms=, /echo (POST), /whoami (ip, protocol, host, id), an onClose hook that logs. */
export const APP_CJS = `
module.exports = async function app (app, opts) {
  app.get('/hello', async () => ({ hello: 'world' }))
  app.get('/pid', async () => ({ pid: process.pid }))
  app.get('/slow', async (req) => { await new Promise((r) => setTimeout(r, Number(req.query.ms ?? 300))); return { slow: true, pid: process.pid } })
  app.post('/echo', async (req) => req.body)
  app.get('/whoami', async (req) => ({ ip: req.ip, ips: req.ips, protocol: req.protocol, hostname: req.hostname, id: req.id, pid: process.pid }))
  app.addHook('onClose', async () => { app.log.info('onClose hook ran') })
}
module.exports.options = { bodyLimit: 16 }
`

/** ES module with a default export and named server options (used with --options). */
export const APP_ESM = `
export default async function (app) {
  app.get('/hello', async (req) => ({ esm: true, id: req.id }))
  app.post('/echo', async (req) => req.body)
}
export const options = { bodyLimit: 8, genReqId: () => 'from-exported-options' }
`

/** TypeScript, loaded through the user's loader (node --import tsx). */
export const APP_TS = `
interface Greeting { hello: string }
export default async function (app: any): Promise<void> {
  app.get('/hello', async (): Promise<Greeting> => ({ hello: 'typescript' }))
}
`

/** Fails while loading (a plugin that throws). */
export const APP_BROKEN = `
module.exports = async function () { throw new Error('database unreachable at boot') }
`

/** The readiness recipe of docs/deployment.md: /ready fails as soon as trellis start begins draining. */
export const APP_READINESS = `
module.exports = async function (app) {
  let ready = true
  const notReady = () => { ready = false }
  process.once('trellis:draining', notReady)
  app.addHook('onClose', async () => { process.removeListener('trellis:draining', notReady) })
  app.get('/ready', async (request, reply) => ready ? { ready: true } : reply.code(503).send({ ready: false }))
  app.get('/hello', async () => ({ hello: 'world', pid: process.pid }))
}
`
