/** Route schemas and the validator/serializer compiler interface. */
import type { TrellisInstance } from './instance'

/** The schema parts of a route (and, through RouteSchemaOptions, keywords entries such as trellis/openapi add). */
export interface TrellisSchema extends RouteSchemaOptions {
  body?: unknown
  querystring?: unknown
  params?: unknown
  headers?: unknown
  response?: unknown
}

/** What a validator or serializer compiler is given for one schema of one route. */
export interface RouteSchemaDefinition<T> {
  schema: T
  method: string
  url: string
  httpPart?: string
  httpStatus?: string
}

export interface SchemaValidationError {
  keyword: string
  instancePath: string
  schemaPath: string
  params: Record<string, string | string[]>
  message?: string
}

/** A compiled validator: true/false (with `.errors`), a promise, or `{ error, value }`. */
export interface ValidationFunction {
  (data: any): boolean | PromiseLike<any> | { error?: Error; value?: any }
  errors?: SchemaValidationError[] | null
}

export type SchemaCompiler<T> = (routeSchema: RouteSchemaDefinition<T>) => ValidationFunction
export type SerializerCompiler<T> = (routeSchema: RouteSchemaDefinition<T>) => (data: any) => string

export interface SchemaControllerOptions {
  bucket?: (parentSchemas?: unknown) => {
    add(schema: unknown): TrellisInstance
    getSchema(schemaId: string): unknown
    getSchemas(): Record<string, unknown>
  }
  compilersFactory?: {
    buildValidator?: (externalSchemas: any, options?: any) => SchemaCompiler<any>
    buildSerializer?: (externalSchemas: unknown, serializerOpts: Record<string, unknown> | undefined) => SerializerCompiler<unknown>
  }
}

// The same declarations under Fastify 4.3's names (aliases made here, where they are declared,
// so that module augmentation of either name reaches the one declaration).
export type { TrellisSchema as FastifySchema, SchemaCompiler as FastifySchemaCompiler, SerializerCompiler as FastifySerializerCompiler, RouteSchemaDefinition as FastifyRouteSchemaDef, SchemaValidationError as FastifySchemaValidationError, ValidationFunction as FastifyValidationResult, SchemaControllerOptions as FastifySchemaControllerOptions }

/**
 * Keywords a route's `schema` option may carry besides the schema parts: an interface so that
 * entries such as trellis/openapi can declare theirs (`declare module './types/schema'`). The
 * route schema type (TrellisSchema / FastifySchema) extends it.
 */
export interface RouteSchemaOptions {}
