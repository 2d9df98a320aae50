/**
 * A context: one node of the encapsulation tree. It links to its parent and holds its own hooks,
 * shared schemas, content-type parsers, handlers and per-context Request/Reply classes. A child is
 * derived from its parent when its plugin starts loading: copies of the parent's hook lists, a child
 * schema store, a copy-on-write parser registry and Request/Reply subclasses, so that what a child
 * defines is never seen by its parent or siblings.
 */
import type { AppState } from './app-state'
import { kContext } from './symbols'
import { copyRequestHooks, emptyRequestHooks, type AnyHook, type RequestHookName, type RequestHooks } from '../lifecycle/hooks'
import { withRequestIdHeader, type GenReqId } from '../routing/request-id'
import type { ChildLoggerFactory } from '../server/logger'
import { SchemaStore, type SchemaBucketFactory } from '../schema/store'
import type { ContentTypeParsers } from '../lifecycle/content-type-parsers'
import { deriveRequestClass, RequestV4, RequestV5, type RequestClass } from '../lifecycle/request'
import { deriveReplyClass, ReplyV4, ReplyV5, type ReplyClass } from '../lifecycle/reply'
import type { ErrorHandler } from '../lifecycle/error-handling'
import type { ValidatorCompiler, SchemaErrorFormatter } from '../schema/validation'
import type { SerializerCompiler } from '../schema/serialization'
import type { Logger } from '../server/logger'

interface NotFoundSetup {
  handler: (...args: any[]) => unknown
  hooks: Partial<Record<'preValidation' | 'preHandler', AnyHook[]>>
  /** `setNotFoundHandler({ errorHandler }, fn)` (Fastify 4.29): the 404 route's own error handler, bound to the instance. */
  errorHandler?: (...args: any[]) => unknown
}

export interface SchemaControllerOptions {
  bucket?: SchemaBucketFactory
  compilersFactory?: {
    buildValidator?: (externalSchemas: Record<string, unknown>, ajvServerOptions: unknown) => ValidatorCompiler
    buildSerializer?: (externalSchemas: Record<string, unknown>, serializerOptions: unknown) => SerializerCompiler
  }
}

/** A compiler a context built from a factory, kept while the factory and the number of shared schemas stay the same. */
export interface BuiltCompiler<C> { factory: unknown, count: number, compiler: C }

export class PluginContext {
  readonly children: PluginContext[] = []
  /** Names of plugins registered in this context and its ancestors (for plugin-meta dependencies). */
  readonly registeredPlugins: string[]
  /** Fastify's plugin name chain: this context's plugin ('fastify' for the root), then the wrapped plugins loaded into it. */
  readonly pluginNames: string[]
  hooks: RequestHooks
  onRoute: AnyHook[]
  onRegister: AnyHook[]
  readonly onReady: AnyHook[] = []
  readonly onClose: AnyHook[] = []
  /** onListen hooks (Fastify 4.29): run after the server listens, this context's then its children's. */
  readonly onListen: AnyHook[] = []
  /** preClose hooks (Fastify 4.29): run by close() before the server stops accepting connections. */
  readonly preClose: AnyHook[] = []
  readonly schemas: SchemaStore
  parsers: ContentTypeParsers
  errorHandler: ErrorHandler
  notFound: NotFoundSetup | null
  /** true once this context set its own 404 handler (only one per prefix). */
  ownNotFound = false
  /** On the context that starts a prefix level (or the root): a custom 404 handler was set in this level. */
  notFoundLocked = false
  validatorCompiler: ValidatorCompiler | null
  serializerCompiler: SerializerCompiler | null
  schemaErrorFormatter: SchemaErrorFormatter | null
  schemaController: SchemaControllerOptions | null
  replySerializer: ((payload: unknown, statusCode: number) => string) | null
  Request: RequestClass
  Reply: ReplyClass
  log: Logger
  logLevel: string | undefined
  /** Log serializers given to register() here and in ancestors (request loggers get them). */
  logSerializers: Record<string, (value: any) => unknown> | undefined
  /** `setGenReqId` here (behind the request-id header); null: the nearest ancestor's, else the server's. */
  ownGenReqId: GenReqId | null = null
  /** `setChildLoggerFactory` here; null: the nearest ancestor's, else the built-in request logger. */
  ownChildLoggerFactory: ChildLoggerFactory | null = null
  /** The default compilers this context's routes were built with (what `instance.validatorCompiler` reports then). */
  readonly routeCompilers: { validator?: ValidatorCompiler, serializer?: SerializerCompiler } = {}
  /** Compilers built for this context's shared schemas (see context/schema-compilers.ts builtOnce). */
  readonly builtCompilers: { factoryValidator?: BuiltCompiler<ValidatorCompiler>, factorySerializer?: BuiltCompiler<SerializerCompiler>, defaultValidator?: BuiltCompiler<ValidatorCompiler> } = {}

  constructor (
    readonly app: AppState,
    readonly parent: PluginContext | null,
    readonly instance: any,
    readonly name: string,
    readonly prefix: string,
    parsers: ContentTypeParsers,
    errorHandler: ErrorHandler,
    log: Logger
  ) {
    instance[kContext] = this
    this.pluginNames = [parent === null ? 'fastify' : name]
    if (parent === null) {
      this.registeredPlugins = []
      this.hooks = emptyRequestHooks()
      this.onRoute = []
      this.onRegister = []
      this.schemas = new SchemaStore()
      this.notFound = null
      this.validatorCompiler = null
      this.serializerCompiler = null
      this.schemaErrorFormatter = null
      this.schemaController = null
      this.replySerializer = null
      // each Fastify line has its own request and reply classes (what the lines disagree on)
      const v5 = app.options.line === 5
      this.Request = deriveRequestClass(v5 ? RequestV5 : RequestV4)
      this.Reply = deriveReplyClass(v5 ? ReplyV5 : ReplyV4)
    } else {
      parent.children.push(this)
      this.registeredPlugins = parent.registeredPlugins.slice()
      this.hooks = copyRequestHooks(parent.hooks)
      this.onRoute = parent.onRoute.slice()
      this.onRegister = parent.onRegister.slice()
      this.schemas = parent.schemas.child(parent.schemaController?.bucket)
      this.notFound = parent.notFound
      this.validatorCompiler = parent.validatorCompiler
      this.serializerCompiler = parent.serializerCompiler
      this.schemaErrorFormatter = parent.schemaErrorFormatter
      this.schemaController = parent.schemaController
      this.replySerializer = parent.replySerializer
      this.Request = deriveRequestClass(parent.Request)
      this.Reply = deriveReplyClass(parent.Reply)
    }
    this.parsers = parsers
    this.errorHandler = errorHandler
    this.log = log
    this.logLevel = parent?.logLevel
    this.logSerializers = parent?.logSerializers
  }

  /**
   * Adds a request or onRegister hook here and to every descendant context created so far (later
   * ones copy it from their parent), so a parent's hook reaches a child whatever the order.
   */
  addTreeHook (name: RequestHookName | 'onRegister', fn: AnyHook): void {
    if (name === 'onRegister') this.onRegister.push(fn)
    else this.hooks[name].push(fn)
    for (const child of this.children) child.addTreeHook(name, fn)
  }

  /** `setGenReqId` (Fastify 4.29): like the `genReqId` option, the `requestIdHeader` still wins when present. */
  setGenReqId (fn: GenReqId): void {
    this.ownGenReqId = withRequestIdHeader(this.app.options.requestIdHeader, fn, this.instance)
  }

  /** The generator requests of this context's routes use: its own, else the nearest ancestor's, else the server's. */
  genReqId (): GenReqId {
    for (let c: PluginContext | null = this; c !== null; c = c.parent) if (c.ownGenReqId !== null) return c.ownGenReqId
    return this.app.dispatcher.genReqId
  }

  /** The child logger factory of this context (its own or the nearest ancestor's); null when none was set. */
  childLoggerFactory (): ChildLoggerFactory | null {
    for (let c: PluginContext | null = this; c !== null; c = c.parent) if (c.ownChildLoggerFactory !== null) return c.ownChildLoggerFactory
    return null
  }

  /** "root -> users -> admin": the chain of plugin names from the root to this context. */
  get chain (): string {
    const names: string[] = []
    for (let c: PluginContext | null = this; c !== null; c = c.parent) names.unshift(c.name)
    return names.join(' -> ')
  }
}

export function contextOf (instance: unknown): PluginContext {
  const ctx = (instance as { [kContext]?: PluginContext } | null)?.[kContext]
  if (ctx === undefined) throw new TypeError('not a trellis instance')
  return ctx
}
