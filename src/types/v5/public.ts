/**
 * The public types of `trellis/v5`, under Fastify 5's names and generic parameters. Each is declared
 * once in this folder (or, where the two lines agree, in ../), so module augmentation of
 * `'trellis/v5'` (`interface FastifyInstance { db: Db }`) reaches the one declaration.
 */
export type * from './utils'
export type * from './type-provider'
export type * from './schema'
export type * from './context'
export type * from './logger'
export type * from './content-type-parser'
export type * from './plugin'
export type * from './register'
export type * from './request'
export type * from './reply'
export type * from './route'
export type * from './hooks'
export type * from './instance'
export type * from './server-options'
export type * from './factory'
export type * from './errors'
/** @deprecated use FastifySchemaValidationError */
export type { FastifySchemaValidationError as ValidationResult } from './schema'
export type { FastifyServerFactory, FastifyServerFactoryHandler } from '../server-factory'
export type { Chain as LightMyRequestChain, InjectOptions, Response as LightMyRequestResponse, CallbackFunc as LightMyRequestCallback } from 'light-my-request-6'
export type * from './schema-provider'
