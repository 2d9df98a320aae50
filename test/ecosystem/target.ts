/**
 * The framework the ecosystem tests register plugins on: trellis, or, with
 * ECOSYSTEM_TARGET=<path to a fastify package> (set by `npm run test:ecosystem-on-fastify`), the
 * real fastify@4.29.1, to check that these tests assert Fastify's behaviour rather than trellis's.
 */
import trellis from '../../src/index'

const path = process.env.ECOSYSTEM_TARGET
const target: typeof trellis = path !== undefined && path !== '' ? require(path) : trellis
export default target
