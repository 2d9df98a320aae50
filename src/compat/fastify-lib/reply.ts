/**
 * Fastify's reply module (`fastify/lib/reply.js`) on trellis: the class every reply of a Fastify 5
 * application is an instance of (each context's Reply class derives from it), so
 * `reply instanceof Reply` holds as in Fastify.
 */
import { ReplyV5 } from '../../lifecycle/reply'

export = ReplyV5
