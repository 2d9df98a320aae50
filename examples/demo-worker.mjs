// The demo application for Cloudflare Workers: examples/demo-app.mjs without its docs page (Swagger
// UI is served from swagger-ui-dist's files on disk, which a Worker does not have; the OpenAPI
// document at /documentation/json and /documentation/yaml is served). Build and serve:
//   npx trellis build --target worker examples/demo-worker.mjs --out demo-worker
//   cd demo-worker && npx workerd serve workerd.capnp      # http://127.0.0.1:8787
import demo from './demo-app.mjs'

export default async function demoWorker (app) {
  await demo(app, { docsPage: false })
}
