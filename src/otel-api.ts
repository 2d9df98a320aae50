/**
 * `@opentelemetry/api`, the optional peer dependency of trellis/otel, loaded with a clear error
 * when the application has not installed it (the rest of trellis never loads it).
 */
import type * as Api from '@opentelemetry/api'

function loadApi (): typeof Api {
  try {
    return require('@opentelemetry/api') as typeof Api
  } catch (err) {
    const missing = (err as { code?: string }).code === 'MODULE_NOT_FOUND' && String((err as Error).message).includes("'@opentelemetry/api'")
    if (missing) throw new Error('trellis/otel needs @opentelemetry/api, its peer dependency: npm install @opentelemetry/api')
    throw err
  }
}

const api = loadApi()
export const { context, diag, metrics, propagation, trace, ROOT_CONTEXT, SpanKind, SpanStatusCode } = api
