/**
 * The instance members both lines declare alike. Each line's `FastifyInstance` extends this with
 * its own instance type as `Instance` (what `addSchema` and `setReplySerializer` return); the
 * members where the lines differ stay in the line's interface, which is also the one users augment.
 * `inject` is each line's own (light-my-request 5 on the Fastify 4 line, 6 on the Fastify 5 line).
 * Not exported by either entry.
 */
import type { hasContentTypeParser, removeAllContentTypeParsers, removeContentTypeParser } from '../content-type-parser'

export interface SharedInstanceMembers<RawServer, RawRequest, RawReply, Logger, Instance> {
  server: RawServer
  prefix: string
  version: string
  log: Logger
  /** 'fastify' for the root, else the plugin names of this context ('fastify -> db'). */
  pluginName: string
  listeningOrigin: string

  addSchema(schema: unknown): Instance
  getSchema(schemaId: string): unknown
  getSchemas(): Record<string, unknown>

  hasDecorator(decorator: string | symbol): boolean
  hasRequestDecorator(decorator: string | symbol): boolean
  hasReplyDecorator(decorator: string | symbol): boolean
  hasPlugin(name: string): boolean
  hasConstraintStrategy(strategyName: string): boolean

  /**
   * The application as a fetch handler: `Deno.serve(app.fetch)`, `export default { fetch: app.fetch }`.
   * The first call readies the application. `context`: what the runtime passes after the Request
   * (Workers' `env, ctx`, Bun's server, Deno's handler info), kept on `request.raw.context`.
   */
  fetch(request: Request, ...context: unknown[]): Promise<Response>

  routing(req: RawRequest, res: RawReply): void
  setReplySerializer(replySerializer: (payload: unknown, statusCode: number) => string): Instance
  hasContentTypeParser: hasContentTypeParser
  removeContentTypeParser: removeContentTypeParser
  removeAllContentTypeParsers: removeAllContentTypeParsers
  printPlugins(): string

  /** `await using app = trellis()` closes it. */
  [Symbol.asyncDispose](): Promise<undefined>
}
