/**
 * Fastify 5's `lib/log-controller.js` on trellis: the LogController class trellis writes its
 * request log lines with (src/server/log-controller.ts).
 */
import { LogController } from '../../server/log-controller'

export = { LogController }
