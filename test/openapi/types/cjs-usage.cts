// Compiled (not run) by test/openapi/declarations.test.ts as CommonJS with node16 resolution.
import trellis = require('trellis')
import openapi = require('trellis/openapi')

const app = trellis.default()
app.register(openapi.default, { openapi: { info: { title: 't', version: '1' } } })
app.register(openapi.openapi, { exposeRoute: false })
const doc = app.openapi()
const paths: Record<string, unknown> = doc.paths
void paths
