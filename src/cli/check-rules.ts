/**
 * What `trellis check` reports: each Fastify 4 usage that changes or disappears in Fastify 5, with
 * what to write instead. Keyed by the Fastify 4.29 warning that reveals it, or by trellis's own
 * checks of the loaded application (routes, plugins, options) and of its source text.
 */
/** `bridged`: the Fastify 4 bridge carries it on the Fastify 5 line (inside a plugin that declares `fastify: '4.x'`). */
export type Severity = 'breaks' | 'changes' | 'bridged'

/**
 * `bridge`: inside a plugin that the Fastify 4 bridge runs, the bridge answers this usage on the
 * Fastify 5 line (../context/fastify4-bridge.ts); anywhere else it breaks.
 */
export interface Rule { what: string; instead: string; severity: 'breaks' | 'changes'; bridge?: true }

/** Fastify 4.29's deprecations and warnings that name a Fastify 5 removal. */
export const WARNING_RULES: Record<string, Rule> = {
  FSTDEP005: { what: 'request.connection', instead: 'request.socket', severity: 'breaks', bridge: true },
  FSTDEP006: { what: 'a request/reply decorator with an object or array value (FST_ERR_DEC_REFERENCE_TYPE in v5)', instead: "decorateRequest('x', null) and set it in an onRequest hook, or { getter () { ... } }", severity: 'breaks', bridge: true },
  FSTDEP007: { what: 'a HEAD route declared after its GET route while exposeHeadRoutes is on', instead: 'declare the HEAD route before the GET route, or exposeHeadRoute: false on the GET route', severity: 'breaks' },
  FSTDEP008: { what: 'the route option { version }', instead: "{ constraints: { version: '1.2.0' } }", severity: 'breaks' },
  FSTDEP009: { what: 'the server option { versioning }', instead: 'a constraint strategy: { constraints: { version: strategy } }', severity: 'breaks' },
  FSTDEP010: { what: 'reply.sent = true', instead: 'reply.hijack()', severity: 'breaks' },
  FSTDEP011: { what: 'listen(port, host, ...)', instead: 'listen({ port, host })', severity: 'breaks' },
  FSTDEP012: { what: 'request.context', instead: 'request.routeOptions.config / request.routeOptions.schema', severity: 'breaks', bridge: true },
  FSTDEP013: { what: 'a trailer function that returns its value', instead: 'an async trailer function, or its done callback', severity: 'breaks' },
  FSTDEP014: { what: 'getDefaultRoute / setDefaultRoute', instead: "setNotFoundHandler, or a '*' route", severity: 'breaks' },
  FSTDEP015: { what: 'request.routeSchema', instead: 'request.routeOptions.schema', severity: 'breaks', bridge: true },
  FSTDEP016: { what: 'request.routeConfig', instead: 'request.routeOptions.config', severity: 'breaks', bridge: true },
  FSTDEP017: { what: 'request.routerPath', instead: 'request.routeOptions.url', severity: 'breaks', bridge: true },
  FSTDEP018: { what: 'request.routerMethod', instead: 'request.routeOptions.method', severity: 'breaks', bridge: true },
  FSTDEP019: { what: 'reply.context', instead: 'reply.routeOptions.config / reply.routeOptions.schema', severity: 'breaks', bridge: true },
  FSTDEP020: { what: 'reply.getResponseTime()', instead: 'reply.elapsedTime', severity: 'breaks', bridge: true },
  FSTDEP021: { what: 'reply.redirect(code, url)', instead: 'reply.redirect(url, code)', severity: 'breaks', bridge: true },
  FSTDEP022: { what: 'a shorthand schema (properties without type: object)', instead: "a full JSON Schema: { type: 'object', properties: { ... } }", severity: 'breaks' },
  FSTWRN002: { what: 'an async plugin function that also takes done (FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER in v5)', instead: 'async function (app, opts) { ... } without done, or a callback plugin that calls done()', severity: 'breaks', bridge: true }
}

/** Source text that uses what Fastify 5 removed or changed (read where the application's own files are). */
export const SOURCE_RULES: Array<{ pattern: RegExp } & Rule> = [
  { pattern: /\.routerPath\b/, what: 'request.routerPath', instead: 'request.routeOptions.url', severity: 'breaks', bridge: true },
  { pattern: /\.routerMethod\b/, what: 'request.routerMethod', instead: 'request.routeOptions.method', severity: 'breaks', bridge: true },
  { pattern: /\.routeConfig\b/, what: 'request.routeConfig', instead: 'request.routeOptions.config', severity: 'breaks', bridge: true },
  { pattern: /\.routeSchema\b/, what: 'request.routeSchema', instead: 'request.routeOptions.schema', severity: 'breaks', bridge: true },
  { pattern: /\breply\.context\b|\brequest\.context\b|\breq\.context\b/, what: 'request.context / reply.context', instead: 'request.routeOptions.config / .schema', severity: 'breaks', bridge: true },
  { pattern: /\.getResponseTime\s*\(/, what: 'reply.getResponseTime()', instead: 'reply.elapsedTime', severity: 'breaks', bridge: true },
  { pattern: /\.redirect\s*\(\s*\d/, what: 'reply.redirect(code, url)', instead: 'reply.redirect(url, code)', severity: 'breaks', bridge: true },
  { pattern: /\.sent\s*=[^=]/, what: 'reply.sent = ...', instead: 'reply.hijack()', severity: 'breaks' },
  { pattern: /\b(?:req|request)\.connection\b/, what: 'request.connection', instead: 'request.socket', severity: 'breaks', bridge: true },
  { pattern: /\.listen\s*\(\s*(?:\d|['"`]|port\b|PORT\b)/, what: 'listen(port, ...)', instead: 'listen({ port, host })', severity: 'breaks' },
  { pattern: /\.(?:get|set)DefaultRoute\s*\(/, what: 'getDefaultRoute / setDefaultRoute', instead: "setNotFoundHandler, or a '*' route", severity: 'breaks' },
  { pattern: /\.hasRoute\s*\(/, what: 'hasRoute (v5 matches the route as declared, not a URL it serves)', instead: 'findRoute to test a URL; hasRoute with the declared path', severity: 'changes' },
  { pattern: /\b(?:req|request)\.hostname\b/, what: 'request.hostname (v5: without the port)', instead: 'request.host for host:port; request.port for the port', severity: 'changes' }
]
