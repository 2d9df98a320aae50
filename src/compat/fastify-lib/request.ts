/**
 * Fastify's request module (`fastify/lib/request.js`) on trellis: the class every request of a
 * Fastify 5 application is an instance of (each context's Request class derives from it), so
 * `request instanceof Request` holds as in Fastify.
 */
import { RequestV5 } from '../../lifecycle/request'

export = RequestV5
