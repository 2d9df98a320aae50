/**
 * trellis/v5: the factory of Fastify 5 applications. The same runtime and public surface as
 * `trellis` (the Fastify 4 line); what differs between the lines is listed in docs/compatibility.md.
 *
 *   import trellis from 'trellis/v5'       // or: const trellis = require('trellis/v5')
 *   const app = trellis({ loggerInstance: pino() })
 */
import v4Factory from './index'
import { createApp } from './instance/create-app'
import { errorCodesV5 } from './base/errors-v5'

export * from './index'

/** Creates a root context of a Fastify 5 application (see `trellis` for the forms of `options`). */
// a function, not an arrow: applications may call it with `new`, as Fastify's factory allows
const trellis = function trellis (input?: object) { return createApp(input, 5) } as unknown as typeof v4Factory

export { trellis, trellis as fastify }
export default trellis
export { errorCodesV5 as errorCodes, errorCodesV5 as codes }
/** Fastify 5's `LogController`: subclass it and pass an instance as the `logController` option. */
export { LogController } from './server/log-controller'
