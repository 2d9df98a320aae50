/**
 * trellis: the factory and the public surface.
 *
 *   import trellis from 'trellis'          // or: const trellis = require('trellis')
 *   const app = trellis({ logger: true })
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import diagnosticsChannel from 'node:diagnostics_channel'
import { resolveOptions, initialConfig, type TrellisOptions } from './options'
import { createLogger } from './server/logger'
import { createServer } from './server/listen'
import { TrellisInstance } from './instance'
import './instance-fastify4x'
import { RootState } from './context/root'
import { Context } from './context/context'
import { ContentTypeParsers } from './lifecycle/content-type-parsers'
import type { SchemaBucketFactory } from './schema/store'
import { rootErrorHandler } from './lifecycle/error-handling'
import { bindClientErrorHandler } from './server/client-error'
import { errorCodes } from './errors'
import { VERSION } from './version'

export type { TrellisOptions } from './options'
export type { RouteGenericInterface, TypedRequest, TypedReply, RouteHandler, RouteShorthandOptions, RouteOptionsInput, HookHandler } from './routing/types'
export type { Logger } from './server/logger'
export type { TrellisPlugin, TrellisPluginAsync, TrellisPluginCallback, RegisterOptions, RegisterablePlugin } from './context/plugins'
export type { ErrorCode, TrellisErrorClass, TrellisErrorInstance } from './errors'
export { TrellisInstance } from './instance'
export { errorCodes, createError } from './errors'
export { RequestBase as Request } from './lifecycle/request'
export { ReplyBase as Reply } from './lifecycle/reply'
export { VERSION as version }

/** Creates a root context (a server instance). */
function trellis (options?: TrellisOptions): TrellisInstance {
  const resolved = resolveOptions(options)
  const log = createLogger(resolved.logger)
  const instance = new TrellisInstance()
  const root = new RootState(resolved, log, instance)
  root.initialConfig = initialConfig(resolved)
  const parsers = new ContentTypeParsers({
    bodyLimit: resolved.bodyLimit,
    onProtoPoisoning: resolved.onProtoPoisoning,
    onConstructorPoisoning: resolved.onConstructorPoisoning
  })
  const context = new Context(root, null, instance, 'root', '', parsers, rootErrorHandler, log)
  root.rootContext = context
  if (resolved.schemaErrorFormatter !== undefined) context.schemaErrorFormatter = resolved.schemaErrorFormatter.bind(instance)
  if (resolved.schemaController !== undefined) {
    const controller = resolved.schemaController as { bucket?: SchemaBucketFactory }
    context.schemaController = controller as never
    if (controller.bucket !== undefined) context.schemas.useBucket(controller.bucket)
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (root.isReady) { root.dispatch(req, res); return }
    instance.ready().then(() => root.dispatch(req, res), (err: Error) => {
      log.error({ err }, 'request received before the server could start')
      res.statusCode = 500
      res.end()
    })
  }
  root.server = createServer(resolved, listener)
  if (resolved.clientErrorHandler !== undefined) root.server.on('clientError', resolved.clientErrorHandler.bind(instance))
  else bindClientErrorHandler(root.server, log)
  // APM tools subscribe to this channel to instrument every new instance (as with Fastify 4.3)
  const initChannel = diagnosticsChannel.channel('fastify.initialization')
  if (initChannel.hasSubscribers) initChannel.publish({ fastify: instance })
  return instance
}

export { trellis, trellis as fastify }
export default trellis
export { errorCodes as codes }
