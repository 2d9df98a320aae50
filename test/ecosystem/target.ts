/**
 * The framework and the plugins the ecosystem tests run: the line is a setting, so each file runs
 * unchanged on both.
 *
 * - ECOSYSTEM_LINE=5: the Fastify 5 line, `trellis/v5`'s factory and each plugin's Fastify-5 major
 *   (devDependencies aliased `fastify5-<name>`); otherwise the Fastify 4 line, `trellis` and the
 *   Fastify-4 majors (`@fastify/<name>`). `npm test` runs test/ecosystem in both lines.
 * - ECOSYSTEM_TARGET=<path to a fastify package> (set by `npm run test:ecosystem-on-fastify`): the
 *   real Fastify of that line (fastify@4.29.1, or fastify@5.12.8 with ECOSYSTEM_LINE=5) instead of
 *   trellis, to check that these tests assert Fastify's behaviour rather than trellis's.
 * - ECOSYSTEM_TRANSPORT=fetch: each application's `inject` answers through `app.fetch`
 *   (./fetch-inject.ts), so the tests that use inject check the plugins on the fetch path.
 */
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'
import { injectThroughFetch } from './fetch-inject'

/** The Fastify line the tests run on: 4 (the default) or 5. */
export const line: 4 | 5 = process.env.ECOSYSTEM_LINE === '5' ? 5 : 4

/** What the test runs on, for test names and messages. */
const path = process.env.ECOSYSTEM_TARGET ?? ''
export const onFastify = path !== ''

const factory: typeof trellisV4 = onFastify
  ? require(path)
  // trellis/v5's factory has the same call signature; the tests use the v4 line's types
  : (line === 5 ? trellisV5 : trellisV4)

/** ECOSYSTEM_TRANSPORT=fetch: inject answers through app.fetch (./fetch-inject.ts). */
export const throughFetch = process.env.ECOSYSTEM_TRANSPORT === 'fetch' && !onFastify

const target: typeof trellisV4 = throughFetch
  ? Object.assign((...args: unknown[]) => injectThroughFetch((factory as any)(...args)), factory) as unknown as typeof trellisV4
  : factory
export default target

/** The package name of a @fastify plugin on this line: `@fastify/cors` or its Fastify-5 alias `fastify5-cors`. */
export function pluginName (name: string): string {
  if (line === 4) return name
  const m = /^@fastify\/(.+)$/.exec(name)
  if (m === null) throw new Error(`not a @fastify plugin: ${name}`)
  return `fastify5-${m[1]}`
}

/** Loads the major of a @fastify plugin that belongs to this line (`plugin('@fastify/cors')`). */
export function plugin (name: string): any {
  return require(pluginName(name))
}

/** The resolved path of the line's major of a plugin, to reach its own dependencies (`ws`, `express`). */
export function pluginPath (name: string): string {
  return require.resolve(pluginName(name))
}

/** One value per line, for the few places where a plugin's Fastify-5 major changed what it does. */
export function byLine<T> (v4: T, v5: T): T {
  return line === 5 ? v5 : v4
}
