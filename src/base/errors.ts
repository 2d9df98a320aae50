/**
 * Every error trellis raises: one table, each entry a class with a stable `code` (Fastify's
 * `FST_ERR_*` name), an HTTP `statusCode` and a message template (`%s` placeholders, util.format).
 * Check errors with `instanceof errorCodes.FST_ERR_X` or `err.code === 'FST_ERR_X'`.
 */
import { format } from 'node:util'

export interface TrellisErrorInstance extends Error {
  code: string
  statusCode: number
  cause?: unknown
}

export interface TrellisErrorClass {
  new (...args: unknown[]): TrellisErrorInstance
  (...args: unknown[]): TrellisErrorInstance
  readonly prototype: TrellisErrorInstance
  readonly code: string
}

type ErrorBase = ErrorConstructor | TypeErrorConstructor | RangeErrorConstructor | URIErrorConstructor

function errorToString (this: TrellisErrorInstance): string {
  return `${this.name} [${this.code}]: ${this.message}`
}

/**
 * Makes an error class. Instances are named 'FastifyError' so that code written for Fastify
 * (which checks `err.name`) keeps working; the class itself can be called with or without `new`.
 */
export function createError (code: string, template: string, statusCode = 500, Base: ErrorBase = Error): TrellisErrorClass {
  if (!code) throw new Error('error code must not be empty')
  if (!template) throw new Error('error message must not be empty')
  function TrellisError (this: TrellisErrorInstance | undefined, ...args: unknown[]): TrellisErrorInstance {
    if (!new.target) return new (TrellisError as unknown as TrellisErrorClass)(...args)
    const self = this as TrellisErrorInstance
    self.code = code
    self.name = 'FastifyError'
    self.statusCode = statusCode
    const last = args[args.length - 1]
    if (last !== null && typeof last === 'object' && 'cause' in (last as object)) {
      self.cause = (args.pop() as { cause: unknown }).cause
    }
    self.message = args.length > 0 ? format(template, ...args) : template
    if (Error.stackTraceLimit !== 0) Error.captureStackTrace(self, TrellisError)
    return self
  }
  TrellisError.prototype = Object.create(Base.prototype, {
    constructor: { value: TrellisError, enumerable: false, writable: true, configurable: true }
  })
  Object.defineProperty(TrellisError.prototype, Symbol.toStringTag, { value: 'Error', configurable: true })
  Object.defineProperty(TrellisError.prototype, 'toString', { value: errorToString, writable: true, configurable: true })
  Object.defineProperty(TrellisError, 'code', { value: code })
  // the class carries the name its instances have (as @fastify/error's classes do), so matchers
  // that compare a class's name with an error's name (tap's t.throws(fn, Class)) agree
  Object.defineProperty(TrellisError, 'name', { value: 'FastifyError', configurable: true })
  return TrellisError as unknown as TrellisErrorClass
}

const E = createError
export const errorCodes = {
  FST_ERR_NOT_FOUND: E('FST_ERR_NOT_FOUND', 'Not Found', 404),

  // content-type parsers and bodies
  FST_ERR_CTP_ALREADY_PRESENT: E('FST_ERR_CTP_ALREADY_PRESENT', "Content type parser '%s' already present."),
  FST_ERR_CTP_INVALID_TYPE: E('FST_ERR_CTP_INVALID_TYPE', 'The content type should be a string or a RegExp', 500, TypeError),
  FST_ERR_CTP_EMPTY_TYPE: E('FST_ERR_CTP_EMPTY_TYPE', 'The content type cannot be an empty string', 500, TypeError),
  FST_ERR_CTP_INVALID_HANDLER: E('FST_ERR_CTP_INVALID_HANDLER', 'The content type handler should be a function', 500, TypeError),
  FST_ERR_CTP_INVALID_PARSE_TYPE: E('FST_ERR_CTP_INVALID_PARSE_TYPE', "The body parser can only parse your data as 'string' or 'buffer', you asked '%s' which is not supported.", 500, TypeError),
  FST_ERR_CTP_BODY_TOO_LARGE: E('FST_ERR_CTP_BODY_TOO_LARGE', 'Request body is too large', 413, RangeError),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: E('FST_ERR_CTP_INVALID_MEDIA_TYPE', 'Unsupported Media Type: %s', 415),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: E('FST_ERR_CTP_INVALID_CONTENT_LENGTH', 'Request body size did not match Content-Length', 400, RangeError),
  FST_ERR_CTP_EMPTY_JSON_BODY: E('FST_ERR_CTP_EMPTY_JSON_BODY', "Body cannot be empty when content-type is set to 'application/json'", 400),
  FST_ERR_CTP_INVALID_JSON_BODY: E('FST_ERR_CTP_INVALID_JSON_BODY', 'Body is not valid JSON: %s', 400),
  FST_ERR_CTP_JSON_TOO_DEEP: E('FST_ERR_CTP_JSON_TOO_DEEP', 'JSON body is nested deeper than %s levels', 400, RangeError),
  FST_ERR_CTP_INSTANCE_ALREADY_STARTED: E('FST_ERR_CTP_INSTANCE_ALREADY_STARTED', 'Cannot call "%s" when fastify instance is already started!', 400),

  // decorators
  FST_ERR_DEC_ALREADY_PRESENT: E('FST_ERR_DEC_ALREADY_PRESENT', "The decorator '%s' has already been added!"),
  FST_ERR_DEC_DEPENDENCY_INVALID_TYPE: E('FST_ERR_DEC_DEPENDENCY_INVALID_TYPE', "The dependencies of decorator '%s' must be of type Array."),
  FST_ERR_DEC_MISSING_DEPENDENCY: E('FST_ERR_DEC_MISSING_DEPENDENCY', "The decorator is missing dependency '%s'."),
  FST_ERR_DEC_AFTER_START: E('FST_ERR_DEC_AFTER_START', "The decorator '%s' has been added after start!"),
  FST_ERR_DEC_NOT_VISIBLE: E('FST_ERR_DEC_NOT_VISIBLE', "The decorator '%s' is not visible in %s; it is defined in %s"),

  // hooks
  FST_ERR_HOOK_INVALID_TYPE: E('FST_ERR_HOOK_INVALID_TYPE', 'The hook name must be a string', 500, TypeError),
  FST_ERR_HOOK_INVALID_HANDLER: E('FST_ERR_HOOK_INVALID_HANDLER', '%s hook should be a function, instead got %s', 500, TypeError),
  FST_ERR_HOOK_INVALID_NAME: E('FST_ERR_HOOK_INVALID_NAME', "'%s' is not a valid hook name", 500, TypeError),
  FST_ERR_HOOK_AFTER_START: E('FST_ERR_HOOK_AFTER_START', "The hook '%s' cannot be added after the server has started"),
  FST_ERR_MISSING_MIDDLEWARE: E('FST_ERR_MISSING_MIDDLEWARE', 'You must register a plugin for handling middlewares, visit fastify.io/docs/latest/Reference/Middleware/ for more info.', 500),
  FST_ERR_HOOK_TIMEOUT: E('FST_ERR_HOOK_TIMEOUT', "A callback for '%s' hook timed out. You may have forgotten to call 'done' function or to resolve a Promise"),
  FST_ERR_HOOK_INVALID_ASYNC_HANDLER: E('FST_ERR_HOOK_INVALID_ASYNC_HANDLER', "Async function has too many arguments. Async hooks should not use the 'done' argument.", 500, TypeError),
  FST_ERR_HOOK_NOT_SUPPORTED: E('FST_ERR_HOOK_NOT_SUPPORTED', '%s hook not supported!', 500, TypeError),

  // logger
  FST_ERR_LOG_INVALID_DESTINATION: E('FST_ERR_LOG_INVALID_DESTINATION', 'Cannot specify both logger.stream and logger.file options'),
  FST_ERR_LOG_INVALID_LOGGER: E('FST_ERR_LOG_INVALID_LOGGER', "Invalid logger object provided. The logger instance should have these functions(s): '%s'.", 500, TypeError),

  // reply
  FST_ERR_REP_INVALID_PAYLOAD_TYPE: E('FST_ERR_REP_INVALID_PAYLOAD_TYPE', "Attempted to send payload of invalid type '%s'. Expected a string or Buffer.", 500, TypeError),
  FST_ERR_REP_ALREADY_SENT: E('FST_ERR_REP_ALREADY_SENT', 'Reply was already sent, did you forget to "return reply" in "%s" (%s)?'),
  FST_ERR_REP_SENT_VALUE: E('FST_ERR_REP_SENT_VALUE', 'The only possible value for reply.sent is true.'),
  FST_ERR_SEND_INSIDE_ONERR: E('FST_ERR_SEND_INSIDE_ONERR', 'You cannot use `send` inside the `onError` hook'),
  FST_ERR_SEND_UNDEFINED_ERR: E('FST_ERR_SEND_UNDEFINED_ERR', 'Undefined error has occurred'),
  FST_ERR_BAD_STATUS_CODE: E('FST_ERR_BAD_STATUS_CODE', 'Called reply with an invalid status code: %s'),
  FST_ERR_BAD_TRAILER_NAME: E('FST_ERR_BAD_TRAILER_NAME', 'Called reply.trailer with an invalid header name: %s'),
  FST_ERR_BAD_TRAILER_VALUE: E('FST_ERR_BAD_TRAILER_VALUE', "Called reply.trailer('%s', fn) with an invalid type: %s. Expected a function."),
  FST_ERR_MISSING_SERIALIZATION_FN: E('FST_ERR_MISSING_SERIALIZATION_FN', 'Missing serialization function. Key "%s"'),
  FST_ERR_REQ_INVALID_VALIDATION_INVOCATION: E('FST_ERR_REQ_INVALID_VALIDATION_INVOCATION', 'Invalid validation invocation. Missing validation function for HTTP part "%s" nor schema provided.'),
  FST_ERR_ERROR_HANDLER_NOT_FN: E('FST_ERR_ERROR_HANDLER_NOT_FN', 'Error Handler must be a function', 500, TypeError),
  FST_ERR_REP_RESPONSE_BODY_CONSUMED: E('FST_ERR_REP_RESPONSE_BODY_CONSUMED', 'Response.body is already consumed.'),
  FST_ERR_FAILED_ERROR_SERIALIZATION: E('FST_ERR_FAILED_ERROR_SERIALIZATION', 'Failed to serialize an error. Error: %s. Original error: %s'),
  FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN: E('FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN', 'Missing serialization function. Key "%s:%s"'),

  // schemas
  FST_ERR_SCH_MISSING_ID: E('FST_ERR_SCH_MISSING_ID', 'Missing schema $id property'),
  FST_ERR_SCH_ALREADY_PRESENT: E('FST_ERR_SCH_ALREADY_PRESENT', "Schema with id '%s' already declared!"),
  FST_ERR_SCH_DUPLICATE: E('FST_ERR_SCH_DUPLICATE', "Schema with '%s' already present!"),
  FST_ERR_SCH_VALIDATION_BUILD: E('FST_ERR_SCH_VALIDATION_BUILD', 'Failed building the validation schema for %s: %s, due to error %s'),
  FST_ERR_SCH_SERIALIZATION_BUILD: E('FST_ERR_SCH_SERIALIZATION_BUILD', 'Failed building the serialization schema for %s: %s, due to error %s'),
  FST_ERR_SCH_BODY_ON_GET: E('FST_ERR_SCH_BODY_ON_GET', 'Body validation schema for %s:%s route is not supported!'),
  FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_ERROR: E('FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_ERROR', 'schemaErrorFormatter option must return an Error, it returned %s'),
  FST_ERR_VALIDATION: E('FST_ERR_VALIDATION', '%s', 400),
  FST_ERR_SCH_CONTENT_MISSING_SCHEMA: E('FST_ERR_SCH_CONTENT_MISSING_SCHEMA', "Schema is missing for the content type '%s'"),
  FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX: E('FST_ERR_SCH_RESPONSE_SCHEMA_NOT_NESTED_2XX', 'response schemas should be nested under a valid status code, e.g { 2xx: { type: "object" } }'),

  // factory options
  FST_ERR_OPTIONS_NOT_OBJ: E('FST_ERR_OPTIONS_NOT_OBJ', 'Options must be an object', 500, TypeError),
  FST_ERR_QSP_NOT_FN: E('FST_ERR_QSP_NOT_FN', "querystringParser option should be a function, instead got '%s'", 500, TypeError),
  FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN: E('FST_ERR_SCHEMA_CONTROLLER_BUCKET_OPT_NOT_FN', "schemaController.bucket option should be a function, instead got '%s'", 500, TypeError),
  FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN: E('FST_ERR_SCHEMA_ERROR_FORMATTER_NOT_FN', "schemaErrorFormatter option should be a non async function. Instead got '%s'.", 500, TypeError),
  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ: E('FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_OBJ', "ajv.customOptions option should be an object, instead got '%s'", 500, TypeError),
  FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR: E('FST_ERR_AJV_CUSTOM_OPTIONS_OPT_NOT_ARR', "ajv.plugins option should be an array, instead got '%s'", 500, TypeError),

  // server
  FST_ERR_HTTP2_INVALID_VERSION: E('FST_ERR_HTTP2_INVALID_VERSION', 'HTTP2 is available only from node >= 8.8.1'),
  FST_ERR_INIT_OPTS_INVALID: E('FST_ERR_INIT_OPTS_INVALID', "Invalid initialization options: '%s'"),
  FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE: E('FST_ERR_FORCE_CLOSE_CONNECTIONS_IDLE_NOT_AVAILABLE', "Cannot set forceCloseConnections to 'idle' as your HTTP server does not support closeIdleConnections method"),
  FST_ERR_REOPENED_CLOSE_SERVER: E('FST_ERR_REOPENED_CLOSE_SERVER', 'Fastify has already been closed and cannot be reopened'),
  FST_ERR_REOPENED_SERVER: E('FST_ERR_REOPENED_SERVER', 'Fastify is already listening'),
  FST_ERR_LISTEN_OPTIONS_INVALID: E('FST_ERR_LISTEN_OPTIONS_INVALID', "Invalid listen options: '%s'", 500, TypeError),
  FST_ERR_INSTANCE_ALREADY_LISTENING: E('FST_ERR_INSTANCE_ALREADY_LISTENING', 'Fastify instance is already listening. %s'),

  // routes
  FST_ERR_DUPLICATED_ROUTE: E('FST_ERR_DUPLICATED_ROUTE', "Method '%s' already declared for route '%s'"),
  FST_ERR_BAD_URL: E('FST_ERR_BAD_URL', "'%s' is not a valid url component", 400),
  // trellis: the Host and framing rules node's parser does not enforce (server/request-framing.ts)
  FST_ERR_INVALID_HOST: E('FST_ERR_INVALID_HOST', 'Invalid Host: %s', 400),
  FST_ERR_ASTERISK_FORM: E('FST_ERR_ASTERISK_FORM', 'Invalid request target: %s', 400),
  FST_ERR_INVALID_TRANSFER_ENCODING: E('FST_ERR_INVALID_TRANSFER_ENCODING', 'Invalid Transfer-Encoding: %s', 400),
  FST_ERR_DEFAULT_ROUTE_INVALID_TYPE: E('FST_ERR_DEFAULT_ROUTE_INVALID_TYPE', 'The defaultRoute type should be a function', 500, TypeError),
  FST_ERR_INVALID_URL: E('FST_ERR_INVALID_URL', "URL must be a string. Received '%s'", 400, TypeError),
  FST_ERR_ROUTE_AFTER_START: E('FST_ERR_ROUTE_AFTER_START', 'Cannot add route %s %s when the server is already started!'),
  FST_ERR_ROUTE_METHOD_NOT_SUPPORTED: E('FST_ERR_ROUTE_METHOD_NOT_SUPPORTED', '%s method is not supported.'),
  FST_ERR_ROUTE_MISSING_HANDLER: E('FST_ERR_ROUTE_MISSING_HANDLER', 'Missing handler function for %s:%s route.'),
  FST_ERR_ROUTE_HANDLER_NOT_FN: E('FST_ERR_ROUTE_HANDLER_NOT_FN', 'Error Handler for %s:%s route, if defined, must be a function'),
  FST_ERR_PROMISE_NOT_FULFILLED: E('FST_ERR_PROMISE_NOT_FULFILLED', "Promise may not be fulfilled with 'undefined' when statusCode is not 204"),
  FST_ERR_VERSION_CONSTRAINT_NOT_STR: E('FST_ERR_VERSION_CONSTRAINT_NOT_STR', 'Version constraint should be a string.', 500, TypeError),
  FST_ERR_ASYNC_CONSTRAINT: E('FST_ERR_ASYNC_CONSTRAINT', 'Unexpected error from async constraint'),
  FST_ERR_ROUTE_OPTIONS_NOT_OBJ: E('FST_ERR_ROUTE_OPTIONS_NOT_OBJ', 'Options for "%s:%s" route must be an object', 500, TypeError),
  FST_ERR_ROUTE_DUPLICATED_HANDLER: E('FST_ERR_ROUTE_DUPLICATED_HANDLER', 'Duplicate handler for "%s:%s" route is not allowed!'),
  FST_ERR_ROUTE_METHOD_INVALID: E('FST_ERR_ROUTE_METHOD_INVALID', 'Provided method is invalid!', 500, TypeError),
  FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED: E('FST_ERR_ROUTE_BODY_VALIDATION_SCHEMA_NOT_SUPPORTED', 'Body validation schema for %s:%s route is not supported!'),
  FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT: E('FST_ERR_ROUTE_BODY_LIMIT_OPTION_NOT_INT', "'bodyLimit' option must be an integer > 0. Got '%s'", 500, TypeError),
  FST_ERR_ROUTE_REWRITE_NOT_STR: E('FST_ERR_ROUTE_REWRITE_NOT_STR', 'Rewrite url for "%s" needs to be of type "string" but received "%s"', 500, TypeError),

  // plugins
  FST_ERR_PLUGIN_VERSION_MISMATCH: E('FST_ERR_PLUGIN_VERSION_MISMATCH', "fastify-plugin: %s - expected '%s' fastify version, '%s' is installed"),
  FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE: E('FST_ERR_PLUGIN_NOT_PRESENT_IN_INSTANCE', "The decorator '%s'%s is not present in %s"),
  FST_ERR_PLUGIN_CALLBACK_NOT_FN: E('FST_ERR_PLUGIN_CALLBACK_NOT_FN', 'fastify-plugin: %s'),
  FST_ERR_PLUGIN_NOT_VALID: E('FST_ERR_PLUGIN_NOT_VALID', 'fastify-plugin: %s'),
  FST_ERR_ROOT_PLG_BOOTED: E('FST_ERR_ROOT_PLG_BOOTED', 'fastify-plugin: %s'),
  FST_ERR_PARENT_PLUGIN_BOOTED: E('FST_ERR_PARENT_PLUGIN_BOOTED', 'fastify-plugin: %s'),
  FST_ERR_PLUGIN_TIMEOUT: E('FST_ERR_PLUGIN_TIMEOUT', 'fastify-plugin: %s')
} as const

export type ErrorCode = keyof typeof errorCodes
