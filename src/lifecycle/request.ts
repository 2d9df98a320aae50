/**
 * The Request object handed to hooks and handlers. Every field is set in the constructor so all
 * requests share one hidden class; per-context subclasses carry `decorateRequest` decorators (value
 * decorators also become per-instance fields, see ./instance-fields.ts), so a child's decorator reads
 * as undefined in its parent and siblings.
 */
import { parseMediaType } from '../base/media-type'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import type { RouteContext } from './route-context'
import type { Logger } from '../server/logger'
import { applyNoFields, deriveDecoratableClass, readDecorator, type DecoratedField, type FieldCarrier } from './instance-fields'
import { clientAddress, clientAddresses } from '../server/proxy'
import { emitDeprecation } from '../base/warnings'
import type { ValidatorFn } from '../schema/validation'
import { compileValidationSchema, getValidationFunction, validateInput } from './route-schema-api'

export interface RequestClass {
  new (id: string, params: Record<string, string>, raw: IncomingMessage, query: unknown, log: Logger, context: RouteContext): RequestBase
  readonly prototype: RequestBase
  decorated: boolean
}

export class RequestBase {
  static decorated = false
  static ownFields: DecoratedField[] = []
  static instanceFields: DecoratedField[] = []
  static applyFields: (target: object) => void = applyNoFields
  // `declare`: the constructor sets every field; a plain declaration would make the ES2022 class
  // define each field as undefined first (an extra initializer call and store per field per request)
  declare id: string
  declare params: Record<string, string>
  declare raw: IncomingMessage
  declare query: any
  declare log: Logger
  declare body: any
  declare routeContext: RouteContext
  declare validationError: (Error & { validation?: unknown; validationContext?: string }) | undefined
  declare additionalHeaders: Record<string, unknown> | undefined

  constructor (id: string, params: Record<string, string>, raw: IncomingMessage, query: unknown, log: Logger, context: RouteContext) {
    this.id = id
    this.params = params
    this.raw = raw
    this.query = query
    this.log = log
    this.body = undefined
    this.routeContext = context
    this.validationError = undefined
    this.additionalHeaders = undefined
    ;(new.target as unknown as FieldCarrier).applyFields(this)
  }

  get headers (): Record<string, any> {
    if (this.additionalHeaders !== undefined) return Object.assign({}, this.raw.headers, this.additionalHeaders)
    return this.raw.headers
  }

  set headers (headers: Record<string, any>) {
    this.additionalHeaders = headers
  }

  get server (): any { return this.routeContext.server }
  get url (): string { return this.raw.url ?? '/' }
  /** The URL as the client sent it, before `rewriteUrl` (Fastify 4.29). */
  get originalUrl (): string { return (this.raw as IncomingMessage & { originalUrl?: string }).originalUrl || this.url }
  get method (): string { return this.raw.method ?? 'GET' }
  /** Fastify 4.29's frozen view of the route's options (`config` and `schema` are the route's own). */
  get routeOptions (): Readonly<Record<string, unknown>> {
    const context = this.routeContext
    const options = {
      method: context.config.method,
      url: context.config.url,
      bodyLimit: context.bodyLimit ?? context.env.bodyLimit,
      attachValidation: context.attachValidation,
      logLevel: context.logLevel,
      exposeHeadRoute: context.exposeHeadRoute,
      prefixTrailingSlash: context.prefixTrailingSlash,
      handler: context.handler,
      version: this.raw.headers['accept-version']
    }
    if (context.env.line === 5) (options as Record<string, unknown>).handlerTimeout = context.handlerTimeout
    Object.defineProperties(options, {
      config: { get: () => context.config },
      schema: { get: () => context.schema }
    })
    return Object.freeze(options)
  }

  get is404 (): boolean { return this.routeContext.is404 }
  get socket (): Socket { return this.raw.socket }

  get ip (): string | undefined {
    const trust = this.routeContext.env.trustProxy
    const address = this.raw.socket?.remoteAddress
    // a connection with no address (gone, or not a socket) has no proxy to believe
    if (trust !== null && address !== undefined && address !== null) return clientAddress(this.raw, trust)
    return address
  }

  get ips (): string[] | undefined {
    const trust = this.routeContext.env.trustProxy
    if (trust === null) return undefined
    return clientAddresses(this.raw, trust)
  }

  /** The host the client asked for, with its port: the trusted proxy's `X-Forwarded-Host`, else `Host` (`:authority` on HTTP/2). */
  protected hostWithPort (): string | undefined {
    return this.hostIn(this.raw.headers)
  }

  /** The same, read from `headers` (the raw ones, or validated ones). */
  protected hostIn (headers: Record<string, any>): string | undefined {
    if (this.routeContext.env.trustProxy !== null && this.trustsSocket()) {
      const forwarded = headers['x-forwarded-host']
      if (typeof forwarded === 'string' && forwarded !== '') return lastListItem(forwarded)
    }
    return headers.host ?? (headers[':authority'] as string | undefined)
  }

  get protocol (): string | undefined {
    const socket = this.raw.socket as Socket & { encrypted?: boolean } | undefined
    if (socket === undefined || socket === null) return undefined
    if (this.routeContext.env.trustProxy !== null && this.trustsSocket()) {
      const forwarded = this.raw.headers['x-forwarded-proto']
      if (typeof forwarded === 'string' && forwarded !== '') return lastListItem(forwarded)
    }
    return socket.encrypted === true ? 'https' : 'http'
  }

  /**
   * The peer is a trusted proxy, so its `X-Forwarded-Host` / `-Proto` may be believed. A connection
   * with no address (the client has gone: a closed socket has none) is not trusted.
   */
  private trustsSocket (): boolean {
    const trust = this.routeContext.env.trustProxy
    const address = this.raw.socket?.remoteAddress
    return trust !== null && address !== undefined && address !== null && trust(address, 0)
  }

  /** The route's validator of a request part (`'body'`, ...), or the function compiled earlier for a schema object. */
  getValidationFunction (partOrSchema: string | object): ValidatorFn | undefined {
    return getValidationFunction(this.routeContext, partOrSchema)
  }

  /** Compiles a schema with the route's validator compiler; cached per route by schema object. */
  compileValidationSchema (schema: object, httpPart: string | null = null): ValidatorFn {
    return compileValidationSchema(this.routeContext, schema, httpPart, this.method, this.url)
  }

  /** Validates `input` against the route's schema of a part, or against `schema` (compiled once). */
  validateInput (input: unknown, schema: object | string, httpPart?: string): unknown {
    return validateInput(this.routeContext, input, schema, httpPart, this.method, this.url)
  }
}

function lastListItem (value: string): string {
  const i = value.lastIndexOf(',')
  return (i === -1 ? value : value.slice(i + 1)).trim()
}

/** Fastify 4's request: `hostname` keeps the port; the deprecated route accessors still answer. */
export class RequestV4 extends RequestBase {
  /** Has accessors of its own: routes stop here when they skip empty subclasses. */
  static override decorated = true
  get hostname (): string | undefined { return this.hostWithPort() }
  // deprecated in Fastify 4.29 in favour of routeOptions (FSTDEP015-018) and socket (FSTDEP005)
  get routerPath (): string | undefined { emitDeprecation('FSTDEP017'); return this.routeContext.config.url }
  get routerMethod (): string | string[] | undefined { emitDeprecation('FSTDEP018'); return this.routeContext.config.method }
  get routeConfig (): Record<string, unknown> { emitDeprecation('FSTDEP016'); return this.routeContext.config }
  get routeSchema (): unknown { emitDeprecation('FSTDEP015'); return this.routeContext.schema }
  /** The route's context (`config`, `schema`, ...): deprecated in Fastify 4.29 (FSTDEP012). */
  get context (): RouteContext { emitDeprecation('FSTDEP012'); return this.routeContext }
  get connection (): Socket { emitDeprecation('FSTDEP005'); return this.raw.socket }
}

const PORT_AT_END = /:(\d+)$/

/**
 * Fastify 5's request: `host` is what `hostname` was (with the port), `hostname` drops the port,
 * `port` is the number or null; the accessors Fastify 5 removed are gone; `signal` aborts when the
 * request's connection closes.
 */
export class RequestV5 extends RequestBase {
  static override decorated = true
  declare abortController: AbortController | undefined

  get host (): string {
    // validated headers (a schema may have removed Host or X-Forwarded-Host) are what Fastify 5 reads
    if (this.additionalHeaders !== undefined) return this.hostIn(this.headers) ?? ''
    return this.hostWithPort() ?? ''
  }

  get hostname (): string {
    const host = this.host
    if (host[0] === '[') return host.slice(0, host.indexOf(']') + 1)
    const colon = host.indexOf(':')
    return colon === -1 ? host : host.slice(0, colon)
  }

  getDecorator (name: string | symbol): unknown { return readDecorator(this, name, 'request') }

  /** Sets a declared request property (FST_ERR_DEC_UNDECLARED for one never declared). */
  setDecorator (name: string | symbol, value: unknown): void {
    readDecorator(this, name, 'request')
    ;(this as unknown as Record<string | symbol, unknown>)[name] = value
  }

  /** The request's media type (`type/subtype`, lowercased), or undefined without a valid Content-Type. */
  get mediaType (): string | undefined {
    const header = this.raw.headers['content-type']
    return header === undefined ? undefined : parseMediaType(header)?.essence
  }

  get port (): number | null {
    const match = PORT_AT_END.exec(this.host)
    return match === null ? null : Number(match[1])
  }

  get signal (): AbortSignal {
    let controller = this.abortController
    if (controller !== undefined) return controller.signal
    controller = new AbortController()
    this.abortController = controller
    const abort = (): void => { if (!controller.signal.aborted) controller.abort() }
    this.raw.once('close', abort)
    return controller.signal
  }
}

export function deriveRequestClass (parent: RequestClass | typeof RequestBase): RequestClass {
  return deriveDecoratableClass(parent as typeof RequestBase) as unknown as RequestClass
}
