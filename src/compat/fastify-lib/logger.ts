/**
 * Fastify 4.3's logger module (`fastify/lib/logger.js`) on trellis: the default serializers are
 * trellis' own (src/server/logger.ts), `now` the clock reply times are measured with, and
 * `createLogger` trellis' factory (returns `{ logger, hasLogger }` like 4.3's).
 */
import { createLogger as create, serializers } from '../../server/logger'

function now (): number { return performance.now() }

function createLogger (options: { logger?: unknown }): { logger: unknown; hasLogger: boolean } {
  const option = options.logger
  return { logger: create(option), hasLogger: option !== undefined && option !== null && option !== false }
}

export = { serializers, now, createLogger }
