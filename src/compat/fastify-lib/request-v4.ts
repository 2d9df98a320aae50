/**
 * Fastify 4's `lib/request.js` on trellis: the Fastify 4 line's request class (`request instanceof
 * Request` holds for the requests of every route of a Fastify 4 application), constructible by hand
 * as Fastify's is, and `buildRequest(Request, trustProxy)` (./hand-made-request.ts).
 */
import { RequestV4 } from '../../lifecycle/request'
import { handMadeRequestModule } from './hand-made-request'

export = handMadeRequestModule(4, RequestV4)
