/**
 * Fastify 5's `lib/request.js` on trellis: the Fastify 5 line's request class (`request instanceof
 * Request` holds for the requests of every route of a Fastify 5 application), constructible by hand
 * as Fastify's is, and `buildRequest(Request, trustProxy)` (./hand-made-request.ts).
 */
import { RequestV5 } from '../../lifecycle/request'
import { handMadeRequestModule } from './hand-made-request'

export = handMadeRequestModule(5, RequestV5)
