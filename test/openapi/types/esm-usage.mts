// Compiled (not run) by test/openapi/declarations.test.ts as an ES module with node16 resolution.
import trellis from 'trellis'
import openapi, { openapiErrors, type OpenApiOptions, type OpenApiDocument } from 'trellis/openapi'

const app = trellis()
const options: OpenApiOptions = {
  openapi: { openapi: '3.0.3', info: { title: 't', version: '1' }, servers: [{ url: 'http://localhost' }], tags: [{ name: 'a' }] },
  hideUntagged: true,
  transform: ({ schema, url }) => ({ schema: { ...schema, summary: url }, url }),
  transformObject: ({ openapiObject }) => openapiObject,
  routePrefix: '/docs',
  ui: false
}
app.register(openapi, options)
app.get('/x', { schema: { tags: ['a'], summary: 's', hide: false, operationId: 'x', response: { 200: { type: 'string' } } } }, async () => 'x')
async function main (): Promise<void> {
  await app.ready()
  const doc: OpenApiDocument = app.openapi()
  const text: string = app.swagger({ yaml: true })
  const version: string = doc.openapi
  // @ts-expect-error with { yaml: true } the answer is a string
  const notDoc: OpenApiDocument = app.openapi({ yaml: true })
  void text; void version; void notDoc
}
void main
const code: string = openapiErrors.TRELLIS_OPENAPI_NOT_READY.code
void code
// @ts-expect-error hideUntagged is a boolean
app.register(openapi, { hideUntagged: 'yes' })
