/**
 * The typed route interface (RouteGenericInterface, route options, handlers, shorthand methods)
 * lives with the other public types in src/types/route.ts; this module re-exports the generics for
 * code inside src/routing.
 */
export type { RouteGenericInterface, RouteOptions, RouteShorthandOptions, RouteHandlerMethod } from '../types/route'

/**
 * Keywords a route's `schema` option may carry besides the schema parts: an interface so that
 * entries such as trellis/openapi can declare theirs (`declare module './routing/types'`). The
 * route schema type (TrellisSchema / FastifySchema) extends it.
 */
export interface RouteSchemaOptions {}
