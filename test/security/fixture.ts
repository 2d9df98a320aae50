/**
 * The application the security tests attack: JSON echo, schema-checked body/params/query, a
 * bearer-protected prefix, an address/host echo, text bodies. Short timeouts so slow cases finish.
 */
import trellis, { type TrellisInstance } from '../../src/index'
import bearerAuth from '../../src/bearer-auth'

export const API_KEY = 'secret-token-123'

export function buildFixture (options: Record<string, unknown> = {}): TrellisInstance {
  const app = trellis({ requestTimeout: 1500, headersTimeout: 1000, connectionsCheckingInterval: 100, ...options })
  app.get('/health', async () => ({ ok: true }))
  app.post('/echo', async (req) => ({ type: typeof req.body, body: req.body }))
  app.post('/typed', {
    schema: {
      body: { type: 'object', properties: { name: { type: 'string', maxLength: 50 } }, required: ['name'], additionalProperties: false },
      response: { 200: { type: 'object', properties: { name: { type: 'string' } } } }
    }
  }, async (req) => req.body)
  app.get('/items/:id', { schema: { params: { type: 'object', properties: { id: { type: 'integer' } } } } }, async (req) => ({ id: (req.params as unknown as { id: number }).id }))
  app.get('/search', { schema: { querystring: { type: 'object', properties: { q: { type: 'string', maxLength: 100 } } } } }, async (req) => ({ q: (req.query as { q?: string }).q ?? null }))
  app.get('/echo-query', async (req) => ({ keys: Object.keys(req.query as object).length }))
  app.get('/params/:name', async (req) => ({ name: (req.params as { name: string }).name }))
  app.get('/ip', async (req) => ({ ip: req.ip, ips: req.ips ?? null, hostname: req.hostname, protocol: req.protocol }))
  app.post('/text', async (req) => ({ length: String(req.body).length }))
  app.register(async (x) => {
    x.register(bearerAuth, { keys: [API_KEY] })
    x.get('/data', async () => ({ secret: 42 }))
    x.get('/', async () => ({ secret: 'index' }))
  }, { prefix: '/x' })
  return app
}
