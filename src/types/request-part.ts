/**
 * The type of one request part (body, querystring, params, headers) from its schema, as trellis
 * validates it at run time: the shorthand form (`{ name: { type: 'string' } }`, properties listed
 * at the top level) is an object schema, header names are lowercased (Node gives them lowercased
 * and trellis lowercases the schema's names), Ajv's type coercion means the declared type is
 * what the handler sees (an `integer` param or query field is a `number`, not a string), and Ajv's
 * `useDefaults` means a property with a `default` is always there (the `'request'` mode).
 */
import type { SchemaDepth, SchemaToType } from './schema-to-type'

export type RequestPart = 'body' | 'querystring' | 'params' | 'headers'

export type RequestPartToType<S, Part extends RequestPart> =
  Part extends 'headers' ? AfterValidation<LowercaseNames<Expanded<S>>> : AfterValidation<Expanded<S>>

type AfterValidation<S> = SchemaToType<S, S, SchemaDepth, 'request'>

/** Keywords that make a part schema a full schema (Fastify 4.3's rule for the shorthand form). */
type FullSchema =
  | { readonly type: unknown } | { readonly properties: unknown } | { readonly $ref: unknown }
  | { readonly anyOf: unknown } | { readonly oneOf: unknown } | { readonly allOf: unknown }
  | { readonly static: unknown }

type Expanded<S> = S extends FullSchema ? S : S extends object ? { readonly type: 'object'; readonly properties: S } : S

/** Header schemas: property names and `required` entries lowercased. */
type LowercaseNames<S> = S extends { readonly properties: infer P; readonly static?: never }
  ? {
      readonly type: 'object'
      readonly properties: { readonly [K in keyof P as K extends string ? Lowercase<K> : K]: P[K] }
      readonly required: S extends { readonly required: readonly (infer R extends string)[] } ? ReadonlyArray<Lowercase<R>> : readonly []
      readonly additionalProperties: S extends { readonly additionalProperties: false } ? false : true
    }
  : S
