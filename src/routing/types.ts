/**
 * The typed route interface (RouteGenericInterface, route options, handlers, shorthand methods)
 * lives with the other public types in src/types/route.ts; this module re-exports the generics for
 * code inside src/routing.
 */
export type { RouteGenericInterface, RouteOptions, RouteShorthandOptions, RouteHandlerMethod } from '../types/route'

/** A route's `schema` option; an interface so entries such as trellis/openapi can add their keywords. */
export interface RouteSchemaOptions { body?: unknown; querystring?: unknown; query?: unknown; params?: unknown; headers?: unknown; response?: Record<string | number, unknown> }
