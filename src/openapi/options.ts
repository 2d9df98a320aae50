/** Options of `trellis/openapi`, named as @fastify/swagger's (and @fastify/swagger-ui's) where they mean the same. */

export interface OpenApiTransformInput {
  schema: Record<string, unknown>
  url: string
  /** the route options (after onRoute hooks) */
  route: Readonly<Record<string, unknown>>
  /** the document being built (info, servers, paths so far) */
  openapiObject: Record<string, unknown>
  /** alias of `openapiObject`, as @fastify/swagger passes it */
  swaggerObject: Record<string, unknown>
}

export interface OpenApiOptions {
  /**
   * The document's fixed parts: `openapi` (the version: '3.1.0' by default, or '3.0.3'), `info`,
   * `servers`, `components` (merged with the generated schemas), `tags`, `security`, `externalDocs`,
   * `webhooks` (3.1) and `x-` extensions.
   */
  openapi?: {
    openapi?: string
    info?: { title?: string, version?: string, description?: string, [key: string]: unknown }
    servers?: Array<Record<string, unknown>>
    components?: Record<string, unknown>
    tags?: Array<Record<string, unknown>>
    security?: Array<Record<string, string[]>>
    externalDocs?: Record<string, unknown>
    [key: string]: unknown
  }
  /** Leave out routes without tags. Default false. */
  hideUntagged?: boolean
  /** Routes with this tag are left out. Default 'X-HIDDEN'. */
  hiddenTag?: string
  /** Document HEAD routes too (also per route with `config: { swagger: { exposeHeadRoute: true } }`). Default false. */
  exposeHeadRoutes?: boolean
  /** Per route: change its schema or URL before it is documented (a route's `config.swaggerTransform` wins; `false` there disables). */
  transform?: (input: OpenApiTransformInput) => { schema?: Record<string, unknown>, url?: string }
  /** The finished document, before it is served: return the document to use. */
  transformObject?: (input: { openapiObject: Record<string, unknown>, swaggerObject: Record<string, unknown> }) => Record<string, unknown>
  /** Where the document and the docs page are served. Default '/documentation'. */
  routePrefix?: string
  /** Serve `GET <routePrefix>/json` and `<routePrefix>/yaml`. Default true. */
  exposeRoute?: boolean
  /** Serve the docs page at `<routePrefix>` (Swagger UI from the local swagger-ui-dist package). Default true. */
  ui?: boolean
  /** Swagger UI configuration (JSON values only), e.g. `{ docExpansion: 'full', tryItOutEnabled: true }`. */
  uiConfig?: Record<string, unknown>
}
