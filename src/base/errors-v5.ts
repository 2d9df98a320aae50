/**
 * The error codes Fastify 5 added (same names, messages and statuses). A v5-line application's
 * `errorCodes` is the Fastify 4 table plus these; the v4 line never raises them.
 */
import { createError as E, errorCodes } from './errors'

export const errorCodesAddedInV5 = {
  FST_ERR_ERROR_HANDLER_ALREADY_SET: E('FST_ERR_ERROR_HANDLER_ALREADY_SET', "Error Handler already set in this scope. Set 'allowErrorHandlerOverride: true' to allow overriding.", 500, TypeError),
  FST_ERR_DEC_REFERENCE_TYPE: E('FST_ERR_DEC_REFERENCE_TYPE', "The decorator '%s' of type '%s' is a reference type. Use the { getter, setter } interface instead."),
  FST_ERR_DEC_UNDECLARED: E('FST_ERR_DEC_UNDECLARED', "No decorator '%s' has been declared on %s."),
  FST_ERR_LOG_INVALID_LOGGER_INSTANCE: E('FST_ERR_LOG_INVALID_LOGGER_INSTANCE', 'loggerInstance only accepts a logger instance.', 500, TypeError),
  FST_ERR_LOG_INVALID_LOGGER_CONFIG: E('FST_ERR_LOG_INVALID_LOGGER_CONFIG', 'logger options only accepts a configuration object.', 500, TypeError),
  FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED: E('FST_ERR_LOG_LOGGER_AND_LOGGER_INSTANCE_PROVIDED', 'You cannot provide both logger and loggerInstance. Please provide only one.', 500, TypeError),
  FST_ERR_LOG_INVALID_LOG_CONTROLLER: E('FST_ERR_LOG_INVALID_LOG_CONTROLLER', "logController option must be an instance of LogController, got '%s'.", 500, TypeError),
  FST_ERR_REP_READABLE_STREAM_LOCKED: E('FST_ERR_REP_READABLE_STREAM_LOCKED', 'ReadableStream was locked. You should call releaseLock() method on reader before sending.'),
  FST_ERR_MAX_PARAM_LENGTH: E('FST_ERR_MAX_PARAM_LENGTH', "'%s' is exceeding the max param length", 414, URIError),
  FST_ERR_ROUTE_LOG_LEVEL_INVALID: E('FST_ERR_ROUTE_LOG_LEVEL_INVALID', "Log level for '%s:%s' route must be a valid logger level. Received: '%s'", 500, TypeError),
  FST_ERR_HANDLER_TIMEOUT: E('FST_ERR_HANDLER_TIMEOUT', "Request timed out after %s ms on route '%s'", 503),
  FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT: E('FST_ERR_ROUTE_HANDLER_TIMEOUT_OPTION_NOT_INT', "'handlerTimeout' option must be an integer > 0. Got '%s'", 500, TypeError),
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: E('FST_ERR_ROUTE_MISSING_CONTENT_TYPE', "Method '%s' must provide a 'Content-Type' header.", 400),
  FST_ERR_ROUTE_MISSING_CONTENT: E('FST_ERR_ROUTE_MISSING_CONTENT', "Method '%s' must provide a request body.", 400),
  FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER: E('FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER', 'The %s plugin being registered mixes async and callback styles. Async plugin should not mix async and callback style.', 500, TypeError),
  FST_ERR_CTP_INVALID_JSON_BODY: E('FST_ERR_CTP_INVALID_JSON_BODY', "Body is not valid JSON but content-type is set to 'application/json'", 400),
  FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED: E('FST_ERR_PLUGIN_DEPENDENCY_NOT_REGISTERED', "The dependency '%s' of plugin '%s' is not registered")
} as const

/** The codes Fastify 5 kept with another message. */
export const errorCodesChangedInV5 = {
  // the message no longer names the type
  FST_ERR_CTP_INVALID_MEDIA_TYPE: E('FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type', 415)
} as const

/** A v5-line application's `errorCodes`. */
export const errorCodesV5 = { ...errorCodes, ...errorCodesAddedInV5, ...errorCodesChangedInV5 }
