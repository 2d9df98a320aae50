/**
 * Creating an application: options checked for its Fastify line, the logger, the root instance and
 * context, the server, and the `fastify.initialization` channel. The entries (`trellis`: line 4,
 * `trellis/v5`: line 5) are typed wrappers around this one function.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import diagnosticsChannel from 'node:diagnostics_channel'
import { resolveOptions, initialConfig } from './options'
import type { TrellisOptions } from '../base/option-types'
import type { FastifyLine } from '../base/version'
import { createLogger } from '../server/logger'
import { assertWorkerOptions } from '../base/worker-target'
import { createServer } from '../server/listen'
import { TrellisInstance, defineOwnAccessors } from './instance'
import { TrellisInstanceV5 } from './instance-v5'
import { AppState } from '../context/app-state'
import { PluginContext } from '../context/plugin-context'
import { ContentTypeParsers } from '../lifecycle/content-type-parsers'
import type { SchemaBucketFactory } from '../schema/store'
import { rootErrorHandler } from '../lifecycle/error-handling'
import { bindClientErrorHandler } from '../server/client-error'

export function createApp (input: object | undefined, line: FastifyLine): TrellisInstance {
  const options = input as TrellisOptions | undefined
  const resolved = resolveOptions(options, line)
  assertWorkerOptions(resolved)
  const log = createLogger(resolved.logger)
  const instance = line === 5 ? new TrellisInstanceV5() : new TrellisInstance()
  defineOwnAccessors(instance as never)
  const app = new AppState(resolved, log, instance)
  app.initialConfig = initialConfig(resolved)
  const parsers = new ContentTypeParsers({
    bodyLimit: resolved.bodyLimit,
    onProtoPoisoning: resolved.onProtoPoisoning,
    onConstructorPoisoning: resolved.onConstructorPoisoning,
    jsonDepthLimit: resolved.jsonDepthLimit,
    line
  })
  const context = new PluginContext(app, null, instance, 'root', '', parsers, rootErrorHandler, log)
  app.rootContext = context
  // Fastify 5's childLoggerFactory option: the root context's factory, as setChildLoggerFactory sets it
  const childLoggerFactory = (resolved.input as { childLoggerFactory?: unknown }).childLoggerFactory
  if (line === 5 && typeof childLoggerFactory === 'function') context.ownChildLoggerFactory = childLoggerFactory as never
  if (resolved.schemaErrorFormatter !== undefined) context.schemaErrorFormatter = resolved.schemaErrorFormatter.bind(instance)
  if (resolved.schemaController !== undefined) {
    const controller = resolved.schemaController as { bucket?: SchemaBucketFactory }
    context.schemaController = controller as never
    if (controller.bucket !== undefined) context.schemas.useBucket(controller.bucket)
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    if (app.isReady) { app.dispatcher.dispatch(req, res); return }
    instance.ready().then(() => app.dispatcher.dispatch(req, res), (err: Error) => {
      log.error({ err }, 'request received before the server could start')
      res.statusCode = 500
      res.end()
    })
  }
  app.server = createServer(resolved, listener)
  if (resolved.clientErrorHandler !== undefined) app.server.on('clientError', resolved.clientErrorHandler.bind(instance))
  else bindClientErrorHandler(app.server, log)
  // APM tools subscribe to this channel to instrument every new instance (as with Fastify 4.3)
  const initChannel = diagnosticsChannel.channel('fastify.initialization')
  if (initChannel.hasSubscribers) initChannel.publish({ fastify: instance })
  return instance
}
