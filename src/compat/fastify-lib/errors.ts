/**
 * Fastify's error module (`fastify/lib/errors.js`) on trellis: every FST_ERR_* class is the
 * real trellis error class from src/base/errors.ts, and those Fastify 5 added from
 * src/base/errors-v5.ts (same code, status and message template). The Fastify 5 suite reads
 * errors-v5.ts beside this file instead, whose codes Fastify 5 changed carry their v5 messages.
 */
import { errorCodes } from '../../base/errors'
import { errorCodesAddedInV5 } from '../../base/errors-v5'

const AVVIO_ERRORS_MAP = {
  AVV_ERR_CALLBACK_NOT_FN: errorCodes.FST_ERR_PLUGIN_CALLBACK_NOT_FN,
  AVV_ERR_PLUGIN_NOT_VALID: errorCodes.FST_ERR_PLUGIN_NOT_VALID,
  AVV_ERR_ROOT_PLG_BOOTED: errorCodes.FST_ERR_ROOT_PLG_BOOTED,
  AVV_ERR_PARENT_PLG_LOADED: errorCodes.FST_ERR_PARENT_PLUGIN_BOOTED,
  AVV_ERR_READY_TIMEOUT: errorCodes.FST_ERR_PLUGIN_TIMEOUT
}

function appendStackTrace (oldErr: Error, newErr: Error & { cause?: unknown }): Error {
  newErr.cause = oldErr
  return newErr
}

export = { ...errorCodes, ...errorCodesAddedInV5, AVVIO_ERRORS_MAP, appendStackTrace }
