/**
 * Fastify 5's error module (`fastify/lib/errors.js` of fastify@5) on trellis: the Fastify 4 module
 * beside this file with the codes Fastify 5 changed (src/base/errors-v5.ts). The conformance harness
 * serves it as `lib/errors.js` to Fastify 5's suite.
 */
import fastifyErrors = require('./errors')
import { errorCodesChangedInV5 } from '../../base/errors-v5'

export = { ...fastifyErrors, ...errorCodesChangedInV5 }
