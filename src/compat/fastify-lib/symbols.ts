/**
 * Fastify 4.3's internal symbols (`fastify/lib/symbols.js`), for code that reads Fastify's private
 * state: Fastify's own test suite and a few ecosystem plugins. Loading this module installs, for
 * each symbol trellis has a real counterpart for, a getter on the instance, Request or Reply
 * prototype that returns that real trellis object (see docs/compatibility.md for the table).
 * Symbols without a counterpart are exported (so destructuring works) and read as undefined.
 */
import { TrellisInstance } from '../../instance/instance'
import { contextOf } from '../../context/plugin-context'
import { ReplyBase } from '../../lifecycle/reply'
import { RequestBase } from '../../lifecycle/request'
import { kRouteSerializeFns, kRouteValidateFns } from '../../lifecycle/route-context'
import { kFastifyRouteContext } from '../../lifecycle/detached-route-context'

const names: Record<string, string> = {
  kAvvioBoot: 'fastify.avvioBoot',
  kChildren: 'fastify.children',
  kServerBindings: 'fastify.serverBindings',
  kBodyLimit: 'fastify.bodyLimit',
  kRoutePrefix: 'fastify.routePrefix',
  kLogLevel: 'fastify.logLevel',
  kLogSerializers: 'fastify.logSerializers',
  kHooks: 'fastify.hooks',
  kContentTypeParser: 'fastify.contentTypeParser',
  kState: 'fastify.state',
  kOptions: 'fastify.options',
  kDisableRequestLogging: 'fastify.disableRequestLogging',
  kPluginNameChain: 'fastify.pluginNameChain',
  kSchemaController: 'fastify.schemaController',
  kSchemaHeaders: 'headers-schema',
  kSchemaParams: 'params-schema',
  kSchemaQuerystring: 'querystring-schema',
  kSchemaBody: 'body-schema',
  kSchemaResponse: 'response-schema',
  kSchemaErrorFormatter: 'fastify.schemaErrorFormatter',
  kSchemaVisited: 'fastify.schemas.visited',
  kRequest: 'fastify.Request',
  kRequestValidateFns: 'fastify.request.cache.validateFns',
  kRequestPayloadStream: 'fastify.RequestPayloadStream',
  kRequestAcceptVersion: 'fastify.RequestAcceptVersion',
  kFourOhFour: 'fastify.404',
  kCanSetNotFoundHandler: 'fastify.canSetNotFoundHandler',
  kFourOhFourLevelInstance: 'fastify.404LogLevelInstance',
  kFourOhFourContext: 'fastify.404ContextKey',
  kDefaultJsonParse: 'fastify.defaultJSONParse',
  kReply: 'fastify.Reply',
  kReplySerializer: 'fastify.reply.serializer',
  kReplyIsError: 'fastify.reply.isError',
  kReplyHeaders: 'fastify.reply.headers',
  kReplyTrailers: 'fastify.reply.trailers',
  kReplyHasStatusCode: 'fastify.reply.hasStatusCode',
  kReplyHijacked: 'fastify.reply.hijacked',
  kReplyStartTime: 'fastify.reply.startTime',
  kReplyNextErrorHandler: 'fastify.reply.nextErrorHandler',
  kReplyEndTime: 'fastify.reply.endTime',
  kReplyErrorHandlerCalled: 'fastify.reply.errorHandlerCalled',
  kReplyIsRunningOnErrorHook: 'fastify.reply.isRunningOnErrorHook',
  kReplySerializerDefault: 'fastify.replySerializerDefault',
  kReplySerializeWeakMap: 'fastify.reply.cache.serializeFns',
  kTestInternals: 'fastify.testInternals',
  kErrorHandler: 'fastify.errorHandler',
  kHasBeenDecorated: 'fastify.hasBeenDecorated',
  kKeepAliveConnections: 'fastify.keepAliveConnections',
  kRouteByFastify: 'fastify.routeByFastify',
  // added by Fastify 4.4 - 4.29
  kRouteContext: 'fastify.context',
  kPublicRouteContext: 'fastify.routeOptions',
  kGenReqId: 'fastify.genReqId',
  kChildLoggerFactory: 'fastify.childLoggerFactory',
  kSupportedHTTPMethods: 'fastify.acceptedHTTPMethods',
  kErrorHandlerAlreadySet: 'fastify.errorHandlerAlreadySet',
  kHandlerTimeout: 'fastify.handlerTimeout',
  kTimeoutTimer: 'fastify.request.timeoutTimer',
  kOnAbort: 'fastify.request.onAbort'
}

const symbols: Record<string, symbol> = {}
for (const [key, description] of Object.entries(names)) symbols[key] = Symbol(description)
// the per-route caches of request.compileValidationSchema / reply.compileSerializationSchema are
// keyed by these very symbols on trellis's route context (4.3's tests name the first one
// kRequestValidateWeakMap, its lib kRequestValidateFns)
symbols.kRequestValidateFns = kRouteValidateFns
symbols.kRequestValidateWeakMap = kRouteValidateFns
symbols.kReplySerializeWeakMap = kRouteSerializeFns
// a Reply built by hand (`new Reply(res, { [kRouteContext]: {...} }, log)`) reads the route context
// under this very symbol (lifecycle/detached-route-context.ts)
symbols.kRouteContext = kFastifyRouteContext

function define (proto: object, key: string, get: (this: any) => unknown, set?: (this: any, value: any) => void): void {
  Object.defineProperty(proto, symbols[key], { get, set, configurable: true, enumerable: false })
}

// -- instance: the context's real state
const instanceProto = TrellisInstance.prototype
define(instanceProto, 'kRequest', function () { return contextOf(this).Request })
define(instanceProto, 'kReply', function () { return contextOf(this).Reply })
define(instanceProto, 'kHooks', function () {
  const c = contextOf(this)
  return { ...c.hooks, onRoute: c.onRoute, onRegister: c.onRegister, onReady: c.onReady, onClose: c.onClose }
})
define(instanceProto, 'kContentTypeParser', function () { return contextOf(this).parsers })
define(instanceProto, 'kOptions', function () { return contextOf(this).app.options })
define(instanceProto, 'kRoutePrefix', function () { return contextOf(this).prefix })
define(instanceProto, 'kChildren', function () { return contextOf(this).children.map((c) => c.instance) })
define(instanceProto, 'kBodyLimit', function () { return contextOf(this).app.options.bodyLimit })
define(instanceProto, 'kLogLevel', function () { return contextOf(this).logLevel ?? contextOf(this).log.level })
define(instanceProto, 'kErrorHandler', function () {
  const handler = contextOf(this).errorHandler
  return { func: handler.fn, toJSON () { return `${handler.fn?.name ?? 'anonymous'}()` } }
})
define(instanceProto, 'kSchemaController', function () {
  const store = contextOf(this).schemas
  return { schemaBucket: { store: store.ownSchemas() }, getSchemas: () => store.getAll(), getSchema: (id: string) => store.get(id) }
})
define(instanceProto, 'kState', function () {
  const app = contextOf(this).app
  return { listening: app.listening, closing: app.closing, started: app.booted, booting: app.readyPromise !== null && !app.booted }
})
define(instanceProto, 'kSchemaErrorFormatter', function () { return contextOf(this).schemaErrorFormatter ?? undefined })

// -- reply: its real fields
const replyProto = ReplyBase.prototype
define(replyProto, 'kReplyHeaders', function () { return this.headersStore }, function (v) { this.headersStore = v })
define(replyProto, 'kReplyTrailers', function () { return this.trailersStore }, function (v) { this.trailersStore = v })
define(replyProto, 'kReplyHijacked', function () { return this.hijacked }, function (v) { this.hijacked = v })
define(replyProto, 'kReplyIsError', function () { return this.isError }, function (v) { this.isError = v })
define(replyProto, 'kReplySerializer', function () { return this.customSerializer }, function (v) { this.customSerializer = v })
define(replyProto, 'kReplyHasStatusCode', function () { return this.hasStatusCode }, function (v) { this.hasStatusCode = v })
define(replyProto, 'kReplyStartTime', function () { return this.startTime }, function (v) { this.startTime = v })
define(replyProto, 'kReplyEndTime', function () { return this.endTime }, function (v) { this.endTime = v })
define(replyProto, 'kReplyIsRunningOnErrorHook', function () { return this.runningOnErrorHook }, function (v) { this.runningOnErrorHook = v })

// -- request
define(RequestBase.prototype, 'kRequestPayloadStream', function () { return this.raw })
// Fastify 4.29 keeps the route context under kRouteContext on both request and reply
define(RequestBase.prototype, 'kRouteContext', function () { return this.routeContext })
// Fastify 5's handler timeout: the timer and the close listener of a route with `handlerTimeout` (null once answered)
define(RequestBase.prototype, 'kTimeoutTimer', function () { return this.handlerTimer })
define(RequestBase.prototype, 'kOnAbort', function () { return this.onAbort })
define(replyProto, 'kRouteContext', function () { return this.routeContext })
define(instanceProto, 'kGenReqId', function () { return this.genReqId })
define(instanceProto, 'kChildLoggerFactory', function () { return this.childLoggerFactory })

export = symbols
