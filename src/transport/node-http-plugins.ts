/**
 * Plugins that need node:http's own request and response objects: an application that registers
 * one is served by node:http only. `app.fetch` refuses it with FetchUnavailableError, and on Bun and
 * Deno listen() picks their node:http (runtime-server.ts); the request path never meets the plugin
 * on a fetch exchange, where it would fail outside any request's error handling.
 */

/** Plugin name (its fastify-plugin metadata) -> why it needs node:http's objects. */
const NODE_HTTP_PLUGINS: ReadonlyMap<string, string> = new Map([
  ['@fastify/express', "it sets reply.raw's prototype to Express's response, a node:http ServerResponse, which a fetch exchange's response is not"]
])

export interface NodeHttpPlugin { name: string, why: string }

/** The first registered plugin (by name) that needs node:http's objects, or null. */
export function nodeHttpPlugin (registered: Iterable<string>): NodeHttpPlugin | null {
  for (const name of registered) {
    const why = NODE_HTTP_PLUGINS.get(name)
    if (why !== undefined) return { name, why }
  }
  return null
}

/** A fetch exchange cannot serve this application. Code TRL_ERR_FETCH_UNAVAILABLE. */
export class FetchUnavailableError extends Error {
  readonly code = 'TRL_ERR_FETCH_UNAVAILABLE'
  constructor (what: string, plugin: NodeHttpPlugin) {
    super(`${what} cannot serve this application: ${plugin.name} needs node:http's own objects (${plugin.why}); serve it with listen() on node:http`)
    this.name = 'FetchUnavailableError'
  }
}
