/**
 * trellis/v5: the factory of Fastify 5 applications, typed with Fastify 5's names and generic
 * parameters (src/types/v5/); what differs between the lines is listed in docs/compatibility.md
 * and, for the types, in docs/typescript.md.
 *
 *   import trellis from 'trellis/v5'       // or: const trellis = require('trellis/v5')
 *   const app = trellis({ loggerInstance: pino() })
 */
import { createApp } from './instance/create-app'
import { errorCodesV5 } from './base/errors-v5'
import type { FastifyV5Factory } from './types/v5/factory'

export { createError, version } from './index'
export type * from './types/v5/public'
export type { ErrorCode, TrellisErrorClass, TrellisErrorInstance } from './base/errors'
export type { SchemaRegistry } from './index'
export type { SchemaToType, SchemaMode, SchemaDepth } from './types/schema-to-type'

/** Creates a root context of a Fastify 5 application: HTTP/2 with TLS, HTTP/2, HTTPS or (by default) HTTP/1. */
// a function, not an arrow: applications may call it with `new`, as Fastify's factory allows
const trellis = function trellis (input?: object) { return createApp(input, 5) } as unknown as FastifyV5Factory

export { trellis, trellis as fastify }
export default trellis
export { errorCodesV5 as errorCodes, errorCodesV5 as codes }
/** Fastify 5's `LogController`: subclass it and pass an instance as the `logController` option. */
export { LogController } from './server/log-controller'
