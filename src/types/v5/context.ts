/** The route `config` as hooks and handlers read it (extend FastifyContextConfig by module augmentation). */
import type { FastifyRouteConfig } from './route'
import type { ContextConfigDefault } from './utils'

export interface FastifyContextConfig {}

/** @deprecated Fastify 5 removed `request.context`: read `request.routeOptions.config`. */
export interface FastifyRequestContext<ContextConfig = ContextConfigDefault> {
  config: FastifyContextConfig & FastifyRouteConfig & ContextConfig
}

/** @deprecated Fastify 5 removed `reply.context`: read `reply.routeOptions.config`. */
export interface FastifyReplyContext<ContextConfig = ContextConfigDefault> {
  config: FastifyContextConfig & FastifyRouteConfig & ContextConfig
}
