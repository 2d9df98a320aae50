/** Fastify 5's route schema and compiler types (the content type is part of a serializer's definition). */
import type { Options as AjvOptions, Plugin as AjvPlugin } from 'ajv'
import type { RouteSchemaOptions } from '../schema'
import type { FastifyInstance } from './instance'
import type { SafePromiseLike } from './type-provider'

/** The schema parts of a route (plus keywords such as trellis/openapi declare, through RouteSchemaOptions). */
export interface FastifySchema extends RouteSchemaOptions {
  body?: unknown
  querystring?: unknown
  params?: unknown
  headers?: unknown
  response?: unknown
}

/** One schema of one route, as a compiler receives it. */
export interface FastifyRouteSchemaDef<T> {
  schema: T
  method: string
  url: string
  httpPart?: string
  httpStatus?: string
  contentType?: string
}

export interface FastifySchemaValidationError {
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, unknown>
  message?: string
}

/** A compiled validator: true/false (with `.errors`), a promise, or `{ error, value }`. */
export interface FastifyValidationResult {
  (data: any): boolean | SafePromiseLike<any> | { error?: Error | FastifySchemaValidationError[], value?: any }
  errors?: FastifySchemaValidationError[] | null
}

export type FastifySchemaCompiler<T> = (routeSchema: FastifyRouteSchemaDef<T>) => FastifyValidationResult
export type FastifySerializerCompiler<T> = (routeSchema: FastifyRouteSchemaDef<T>) => (data: any) => string

/** The `ajv` factory option: Ajv's options and plugins for the default validator compiler. */
export interface FastifyAjvOptions {
  customOptions?: AjvOptions
  plugins?: Array<AjvPlugin<unknown> | [AjvPlugin<unknown>, unknown]>
  onCreate?: (ajv: Parameters<AjvPlugin<unknown>>[0]) => void
}

/** Builds the validator compiler of a context from its shared schemas (`schemaController.compilersFactory`). */
export type ValidatorFactory = (externalSchemas: any, options?: any) => (routeSchema: any) => any
/** Builds the serializer compiler of a context from its shared schemas. */
export type SerializerFactory = (externalSchemas: any, options?: any) => (routeSchema: any) => any

export interface FastifySchemaControllerOptions {
  bucket?: (parentSchemas?: unknown) => {
    add(schema: unknown): FastifyInstance
    getSchema(schemaId: string): unknown
    getSchemas(): Record<string, unknown>
  }
  compilersFactory?: {
    buildValidator?: ValidatorFactory
    buildSerializer?: SerializerFactory
  }
}

/** The request part a validation error is about. */
export type SchemaErrorDataVar = 'body' | 'headers' | 'params' | 'querystring'

export type SchemaErrorFormatter = (errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar) => Error
