/**
 * The find-my-way adapter: the only file that knows the router. It also owns the automatic HEAD
 * routes that mirror GET routes (replaced when the application declares its own HEAD route on the
 * Fastify 4 line; a duplicate on the Fastify 5 line), and a
 * fast path for static routes (./static-routes.ts) that answers the common case without a tree walk.
 */
import FindMyWay from 'find-my-way'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { parse as parseQuery } from 'node:querystring'
import { errorCodes } from '../base/errors'
import type { RouteContext } from '../lifecycle/route-context'
import type { ResolvedOptions } from '../base/option-types'
import { StaticRoutes } from './static-routes'

export type RouteHandler = (req: IncomingMessage, res: ServerResponse, params: Record<string, string | undefined>, store: RouteContext, query: Record<string, unknown>) => void

/** The factory options the router reads (their names are find-my-way's). */
type RouterOptions = Pick<ResolvedOptions, 'ignoreTrailingSlash' | 'ignoreDuplicateSlashes' | 'caseSensitive' |
'maxParamLength' | 'allowUnsafeRegex' | 'useSemicolonDelimiter' | 'constraints' | 'querystringParser' | 'router' | 'line'>

/** What answers the requests no route takes. */
interface RouterMisses {
  onNotFound: (req: IncomingMessage, res: ServerResponse) => void
  onBadUrl: (path: string, req: IncomingMessage, res: ServerResponse) => void
  /** An asynchronous constraint strategy (`deriveConstraint(req, ctx, done)`) failed (Fastify 4.29: FST_ERR_ASYNC_CONSTRAINT). */
  onConstraintError: (req: IncomingMessage, res: ServerResponse) => void
  /** A parameter longer than `maxParamLength` (Fastify 5); undefined: such a path matches no route (Fastify 4). */
  onMaxParamLength?: (path: string, req: IncomingMessage, res: ServerResponse) => void
}

export interface Router {
  on(method: string, path: string, constraints: Record<string, unknown>, handler: RouteHandler, store: RouteContext, auto?: boolean): void
  /** find-my-way's match for a method and path (Fastify 4.29 `findRoute`); null when none. */
  find(method: string, path: string, constraints?: Record<string, unknown>): { store: RouteContext, params: Record<string, string | undefined>, searchParams: Record<string, string> } | null
  has(method: string, path: string, constraints?: Record<string, unknown>): boolean
  /** True when a request for `path` with these constraint values would reach a route (an unconstrained route matches any value). */
  matches(method: string, path: string, constraints?: Record<string, unknown>): boolean
  lookup(req: IncomingMessage, res: ServerResponse): void
  prettyPrint(opts?: Record<string, unknown>): string
  /** A custom constraint strategy (find-my-way's shape: name, storage, deriveConstraint, validate). */
  addConstraintStrategy(strategy: Record<string, unknown>): void
  /** True for a custom strategy, or a built-in one (version, host) once a route uses it. */
  hasConstraintStrategy(name: string): boolean
  /** find-my-way's `compile()`: lookup functions generated from the route trees (`routerOptions.compile`). */
  compile(): void
  /** What answers a request no route matches (by default: the 404 routes). */
  defaultRoute: (req: IncomingMessage, res: ServerResponse) => void
}

export function createRouter (options: RouterOptions, misses: RouterMisses): Router {
  const querystringParser = options.querystringParser ?? ((q: string) => parseQuery(q))
  const statics = new StaticRoutes(querystringParser, options.querystringParser === undefined)
  const fmw = FindMyWay({
    ignoreTrailingSlash: options.ignoreTrailingSlash,
    ignoreDuplicateSlashes: options.ignoreDuplicateSlashes,
    caseSensitive: options.caseSensitive,
    maxParamLength: options.maxParamLength,
    allowUnsafeRegex: options.allowUnsafeRegex,
    ...({ useSemicolonDelimiter: options.useSemicolonDelimiter !== false } as object),
    constraints: options.constraints as never,
    querystringParser,
    // Fastify 5's routerOptions may replace what answers misses
    defaultRoute: (options.router.defaultRoute ?? misses.onNotFound) as never,
    onBadUrl: (options.router.onBadUrl ?? misses.onBadUrl) as never,
    ...({ onMaxParamLength: options.router.onMaxParamLength ?? misses.onMaxParamLength } as object),
    ...(options.router.buildPrettyMeta !== undefined ? { buildPrettyMeta: options.router.buildPrettyMeta as never } : {})
  })
  // find-my-way derives the constraints of strategies whose deriveConstraint takes `done` only
  // through its callback lookup; they count once a route uses them (as Fastify 4.29 asks it)
  const asyncStrategies = (fmw as unknown as { constrainer: { asyncStrategiesInUse: Set<string> } }).constrainer.asyncStrategiesInUse
  const onConstraintDone = (req: IncomingMessage, res: ServerResponse) => (err: Error | null): void => {
    if (err !== null && err !== undefined) misses.onConstraintError(req, res)
  }
  /** HEAD routes added automatically for GET routes, by "path|constraints". */
  const autoHead = new Set<string>()
  const keyOf = (path: string, constraints: Record<string, unknown>): string => path + '|' + JSON.stringify(constraints)

  return {
    on (method, path, constraints, handler, store, auto = false) {
      const key = keyOf(path, constraints)
      if (method === 'HEAD') {
        const existing = fmw.hasRoute('HEAD', path, constraints as never)
        if (existing) {
          if (auto) return // the application's own HEAD route wins
          // Fastify 5: a HEAD route must come before the GET route that got an automatic one
          // (find-my-way refuses the second HEAD: FST_ERR_DUPLICATED_ROUTE)
          if (options.line === 4 && autoHead.has(key)) {
            fmw.off('HEAD', path, constraints as never)
            statics.remove('HEAD', path)
            autoHead.delete(key)
          }
        }
        if (auto) autoHead.add(key)
      }
      try {
        fmw.on(method as never, path, { constraints } as never, handler as never, store)
        statics.add(method, path, constraints, handler, store)
      } catch (err) {
        const message = (err as Error).message
        if (message.includes('already declared')) throw new errorCodes.FST_ERR_DUPLICATED_ROUTE(method, path)
        throw err
      }
    },
    has (method, path, constraints = {}) {
      return fmw.hasRoute(method as never, path, constraints as never)
    },
    find (method, path, constraints = {}) {
      return fmw.find(method as never, path, constraints as never) as never
    },
    matches (method, path, constraints = {}) {
      return fmw.find(method as never, path, constraints as never) !== null
    },
    lookup (req, res) {
      if (statics.lookup(req, res)) return
      if (asyncStrategies.size === 0) fmw.lookup(req as never, res as never)
      else fmw.lookup(req as never, res as never, undefined as never, onConstraintDone(req, res) as never)
    },
    prettyPrint (opts) {
      return fmw.prettyPrint(opts as never)
    },
    addConstraintStrategy (strategy) {
      fmw.addConstraintStrategy(strategy as never)
    },
    hasConstraintStrategy (name) {
      return fmw.hasConstraintStrategy(name)
    },
    compile () {
      fmw.compile()
    },
    // find-my-way reads its `defaultRoute` field at each miss (not in its typings)
    get defaultRoute () { return (fmw as unknown as { defaultRoute: (req: IncomingMessage, res: ServerResponse) => void }).defaultRoute },
    set defaultRoute (fn) { (fmw as unknown as { defaultRoute: unknown }).defaultRoute = fn }
  }
}
