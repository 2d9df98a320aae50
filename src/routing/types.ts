/**
 * The typed route interface (RouteGenericInterface, route options, handlers, shorthand methods)
 * lives with the other public types in src/types/route.ts; this module re-exports the generics for
 * code inside src/routing.
 */
export type { RouteGenericInterface, RouteOptions, RouteShorthandOptions, RouteHandlerMethod } from '../types/route'
