/**
 * JSON Schema literal -> TypeScript type, at compile time (no runtime code in this file).
 *
 * `SchemaToType<S>` maps the keywords schemas use in practice: `type` (also arrays of types and
 * OpenAPI's `nullable`), `properties`/`required`, `additionalProperties` (`false` closes the
 * object), `items` (also tuple form), `enum`, `const`, `anyOf`/`oneOf`, shallow `allOf`, and
 * `$ref` to schemas registered in `SchemaRegistry`. TypeBox schemas take a fast path through their
 * own `static` type. Anything else (unknown keywords, widened literals such as `type: string`,
 * schemas nested deeper than `SchemaDepth`, unknown references) maps to `unknown`, never to `any`
 * and never to a compile error.
 *
 * Cost matters more than completeness here: every route of an application instantiates these
 * types, so each keyword is one conditional check, object members are mapped lazily (a property's
 * type is only computed when it is read) and nothing is simplified for display.
 */

import type { SchemaRegistry } from '../index'

/** How many nested schema levels are mapped before the rest degrades to `unknown`. */
export type SchemaDepth = 10

// depth counter: Down[N] is N - 1; reaching 0 stops the mapping
type Down = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

/** The type of values a schema accepts. `Root` is the document `#/...` references point into. */
export type SchemaToType<S, Root = S, D extends number = SchemaDepth> =
  [D] extends [0] ? unknown
    // the common case first, in one check: `type` and none of the keywords that change its meaning
    : S extends { readonly type: infer T } & PlainTyped ? TypeKeyword<T, S, Root, Down[D]>
      : 0 extends (1 & S) ? unknown // `any` in, `unknown` out
        : S extends TypeBoxLike ? (S & { params: [] })['static']
          : S extends { readonly $ref: infer R extends string } ? RefToType<R, Root, Down[D]>
            : Nullable<S, Keywords<S, Root, Down[D]>>

/** A schema whose `type` alone decides its type (no combinators, enum, const, $ref, nullable, TypeBox). */
interface PlainTyped {
  readonly nullable?: false
  readonly const?: never
  readonly enum?: never
  readonly anyOf?: never
  readonly oneOf?: never
  readonly allOf?: never
  readonly $ref?: never
  readonly static?: never
}

/** What a TypeBox schema looks like to the type system (TSchema has `static` and `params`). */
interface TypeBoxLike { static: unknown; params: unknown[] }

type Nullable<S, T> = S extends { readonly nullable: true } ? T | null : T

type Keywords<S, Root, D extends number> =
  S extends { readonly const: infer C } ? C
    : S extends { readonly enum: readonly (infer E)[] } ? E
      : S extends { readonly anyOf: readonly unknown[] } | { readonly oneOf: readonly unknown[] } | { readonly allOf: readonly unknown[] }
        ? Combined<S, Root, D>
        : S extends { readonly type: infer T } ? TypeKeyword<T, S, Root, D>
          : S extends { readonly properties: object } ? ObjectType<S, Root, D>
            : unknown

interface PrimitiveTypes { string: string; number: number; integer: number; boolean: boolean; null: null }

/** `type: 'x'` or `type: ['x', 'null']` (distributes over the array's members). */
type TypeKeyword<T, S, Root, D extends number> =
  T extends keyof PrimitiveTypes ? PrimitiveTypes[T]
    : T extends 'object' ? ObjectType<S, Root, D>
      : T extends 'array' ? ArrayType<S, Root, D>
        : T extends readonly (infer U)[] ? TypeKeyword<U, S, Root, D>
          : unknown

/**
 * anyOf/oneOf are unions, allOf an intersection of its members (shallow: members are not merged
 * keyword by keyword). Sibling keywords (`type`, `properties`) narrow the result further.
 */
type Combined<S, Root, D extends number> =
  (S extends { readonly anyOf: readonly (infer M)[] } ? UnionOf<M, Root, D> : unknown) &
  (S extends { readonly oneOf: readonly (infer M)[] } ? UnionOf<M, Root, D> : unknown) &
  (S extends { readonly allOf: infer L } ? IntersectionOf<L, Root, D> : unknown) &
  (S extends { readonly type: infer T } ? TypeKeyword<T, S, Root, D> : unknown)

// distributes over M: one member schema at a time
type UnionOf<M, Root, D extends number> = M extends unknown ? SchemaToType<M, Root, D> : never

type IntersectionOf<L, Root, D extends number> =
  L extends readonly [infer Head, ...infer Tail] ? SchemaToType<Head, Root, D> & IntersectionOf<Tail, Root, D> : unknown

type ArrayType<S, Root, D extends number> =
  S extends { readonly items: infer I }
    ? I extends readonly unknown[] ? { -readonly [K in keyof I]: SchemaToType<I[K], Root, D> } : Array<SchemaToType<I, Root, D>>
    : S extends { readonly prefixItems: infer P extends readonly unknown[] } ? { -readonly [K in keyof P]: SchemaToType<P[K], Root, D> }
      : unknown[]

type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never

/**
 * Required properties are required, the others optional; without `additionalProperties: false`
 * the object stays open (an index signature of `unknown`), as JSON Schema validates it.
 */
type ObjectType<S, Root, D extends number> =
  (S extends { readonly properties: infer P } ? PropertiesType<P, RequiredKeys<S>, Root, D> : unknown) &
  (S extends { readonly additionalProperties: false } ? unknown : { [key: string]: unknown })

// every property optional, then the required ones again without `?` (no per-key conditional:
// the intersection makes a required property's type `T & (T | undefined)`, that is `T`)
type PropertiesType<P, R, Root, D extends number> =
  { -readonly [K in keyof P]?: SchemaToType<P[K], Root, D> } &
  ([R] extends [never] ? unknown : { -readonly [K in R & keyof P]-?: SchemaToType<P[K], Root, D> })

/**
 * `$ref` targets: `#...` points into the current document; `id`, `id#` and `id#/pointer` into a
 * schema of `SchemaRegistry`. Anything else is `unknown`.
 */
type RefToType<R extends string, Root, D extends number> =
  R extends `#${infer Pointer}` ? PointerToType<Root, Pointer, Root, D>
    : R extends keyof SchemaRegistry ? SchemaToType<SchemaRegistry[R], SchemaRegistry[R], D>
      : R extends `${infer Id}#${infer Pointer}`
        ? Id extends keyof SchemaRegistry ? PointerToType<SchemaRegistry[Id], Pointer, SchemaRegistry[Id], D> : unknown
        : unknown

/** A JSON pointer into a schema, one `/keyword/name` step at a time (`definitions`, `$defs`, `properties`). */
type PointerToType<S, Pointer extends string, Root, D extends number> =
  Pointer extends '' | '/' ? SchemaToType<S, Root, D>
    : Pointer extends `/${infer Keyword}/${infer Rest}`
      ? Keyword extends 'definitions' | '$defs' | 'properties'
        ? S extends { readonly [K in Keyword]: infer Children }
          ? Rest extends `${infer Name}/${infer Deeper}`
            ? Name extends keyof Children ? PointerToType<Children[Name], `/${Deeper}`, Root, D> : unknown
            : Rest extends keyof Children ? SchemaToType<Children[Rest], Root, D> : unknown
          : unknown
        : unknown
      : unknown
