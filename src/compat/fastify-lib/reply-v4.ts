/**
 * Fastify 4's reply module (`fastify/lib/reply.js` of fastify@4) on trellis: the class every reply
 * of a Fastify 4 line application is an instance of (each context's Reply class derives from it).
 * The package serves it as `fastify/lib/reply` when the alias follows the Fastify 4 line.
 */
import { ReplyV4 } from '../../lifecycle/reply'

export = ReplyV4
