/**
 * trellis's public types, each under its trellis name and under the name Fastify 4.3 gives it, so a
 * Fastify 4 TypeScript application compiles with only its import lines changed. Every pair is ONE
 * declaration exported twice (the alias is made in the declaring file), so module augmentation of
 * either name extends both: `declare module 'trellis' { interface FastifyInstance { db: Db } }`.
 */
export * from './instance'
export * from './request'
export * from './reply'
export type * from './server-options'
export type * from './errors'
export type * from './plugin'
export type * from './register'
export type * from './logger'
export type * from './context'
export type * from './route'
export type * from './content-type-parser'
export type * from './schema'
export type * from './utils'
export type * from './hooks'
export type * from './server-factory'
export type * from './type-provider'
export type { Chain as LightMyRequestChain, InjectOptions, Response as LightMyRequestResponse, CallbackFunc as LightMyRequestCallback } from 'light-my-request'
