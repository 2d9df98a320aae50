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

let api: typeof Api | undefined

/**
 * The API, loaded on first use (when the plugin is registered), not when trellis/otel is imported:
 * Node 20 reports an error thrown while an ES module imports a CommonJS one as uncaught even when
 * the import is caught, so a load-time failure would end an application that only probes the entry.
 */
export function otelApi (): typeof Api {
  api ??= loadApi()
  return api
}
