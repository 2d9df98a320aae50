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
 * The mode says which run-time step the type describes (`SchemaMode`): a value the schema accepts,
 * a request part after Ajv validated it (`useDefaults` filled in every property with a `default`),
 * or a reply the serializer takes (it writes a missing property's `default` and drops undeclared
 * properties of an open object).
 *
 * Cost matters more than completeness here: every route of an application instantiates these
 * types, so each keyword is one conditional check, object members are mapped lazily (a property's
 * type is only computed when it is read) and defaults are looked for property by property only in
 * objects that have one. An object is shown as one object type (a mapped type over its parts), so
 * errors and hovers name its properties (`{ id: number; name?: string }`), not the schema it came
 * from (about 7% of the instantiations of bench/types-cost.mjs, paid for readable errors).
 */

import type { SchemaRegistry } from '../index'

/** How many nested schema levels are mapped before the rest degrades to `unknown`. */
export type SchemaDepth = 10

/**
 * Which run-time step a schema's type describes:
 *  - `'value'`: the values the schema accepts (what `SchemaToType<S>` gives on its own);
 *  - `'request'`: a request part after validation: Ajv runs with `useDefaults`, so a property with
 *    a `default` is always there (not inside `anyOf`/`oneOf`, where Ajv assigns no defaults);
 *  - `'reply'`: what a handler may return or send: the serializer writes a missing property's
 *    `default`, so such a property may be left out, and it drops the properties an open object
 *    (one without `additionalProperties: false`) does not declare, so any other property is
 *    accepted there, also from an `interface` type (which has no index signature).
 */
export type SchemaMode = 'value' | 'request' | 'reply'

// depth counter: Down[N] is N - 1; reaching 0 stops the mapping
type Down = [0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]

/**
 * The type of values a schema accepts. `Root` is the document `#/...` references point into, `D`
 * the levels left to map, `M` the run-time step the type describes.
 */
export type SchemaToType<S, Root = S, D extends number = SchemaDepth, M extends SchemaMode = 'value'> =
  [D] extends [0] ? unknown
    // the common case first, in one check: `type` and none of the keywords that change its meaning
    : S extends { readonly type: infer T } & PlainTyped ? TypeKeyword<T, S, Root, Down[D], M>
      : 0 extends (1 & S) ? unknown // `any` in, `unknown` out
        : S extends TypeBoxLike ? (S & { params: [] })['static']
          : S extends { readonly $ref: infer R extends string } ? RefToType<R, Root, Down[D], M>
            : Nullable<S, Keywords<S, Root, Down[D], M>>

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

type Keywords<S, Root, D extends number, M extends SchemaMode> =
  S extends { readonly const: infer C } ? C
    : S extends { readonly enum: readonly (infer E)[] } ? E
      : S extends { readonly anyOf: readonly unknown[] } | { readonly oneOf: readonly unknown[] } | { readonly allOf: readonly unknown[] }
        ? Combined<S, Root, D, M>
        : S extends { readonly type: infer T } ? TypeKeyword<T, S, Root, D, M>
          : S extends { readonly properties: object } ? ObjectType<S, Root, D, M>
            : unknown

interface PrimitiveTypes { string: string; number: number; integer: number; boolean: boolean; null: null }

/** `type: 'x'` or `type: ['x', 'null']` (distributes over the array's members). */
type TypeKeyword<T, S, Root, D extends number, M extends SchemaMode> =
  T extends keyof PrimitiveTypes ? PrimitiveTypes[T]
    : T extends 'object' ? ObjectType<S, Root, D, M>
      : T extends 'array' ? ArrayType<S, Root, D, M>
        : T extends readonly (infer U)[] ? TypeKeyword<U, S, Root, D, M>
          : unknown

/**
 * anyOf/oneOf are unions, allOf an intersection of its members (shallow: members are not merged
 * keyword by keyword). Sibling keywords (`type`, `properties`) narrow the result further. Ajv
 * assigns no defaults under anyOf/oneOf (its strict mode refuses a `default` there), so a request
 * part's members are read as values; it does under allOf.
 */
type Combined<S, Root, D extends number, M extends SchemaMode> =
  (S extends { readonly anyOf: readonly (infer A)[] } ? UnionOf<A, Root, D, Alternative<M>> : unknown) &
  (S extends { readonly oneOf: readonly (infer A)[] } ? UnionOf<A, Root, D, Alternative<M>> : unknown) &
  (S extends { readonly allOf: infer L } ? IntersectionOf<L, Root, D, M> : unknown) &
  (S extends { readonly type: infer T } ? TypeKeyword<T, S, Root, D, M> : unknown)

type Alternative<M extends SchemaMode> = M extends 'request' ? 'value' : M

// distributes over A: one member schema at a time
type UnionOf<A, Root, D extends number, M extends SchemaMode> = A extends unknown ? SchemaToType<A, Root, D, M> : never

type IntersectionOf<L, Root, D extends number, M extends SchemaMode> =
  L extends readonly [infer Head, ...infer Tail] ? SchemaToType<Head, Root, D, M> & IntersectionOf<Tail, Root, D, M> : unknown

type ArrayType<S, Root, D extends number, M extends SchemaMode> =
  S extends { readonly items: infer I }
    ? I extends readonly unknown[] ? { -readonly [K in keyof I]: SchemaToType<I[K], Root, D, M> } : Array<SchemaToType<I, Root, D, M>>
    : S extends { readonly prefixItems: infer P extends readonly unknown[] } ? { -readonly [K in keyof P]: SchemaToType<P[K], Root, D, M> }
      : unknown[]

type RequiredKeys<S> = S extends { readonly required: readonly (infer K)[] } ? K : never

/**
 * The properties that have a `default` (`default: undefined` is no default). One check of all the
 * property schemas first, so that objects without defaults (most) cost no per-property work.
 */
type DefaultKeys<P> =
  P[keyof P] extends NoDefault ? never : { [K in keyof P]-?: P[K] extends { readonly default: {} | null } ? K : never }[keyof P]

/** A schema without a default (the index signature keeps it from being a weak type: any schema literal fits). */
interface NoDefault { readonly default?: undefined; readonly [keyword: string]: unknown }

/** The properties an object of this mode always has: `required`, and in a request part those with a default. */
type PresentKeys<S, P, M extends SchemaMode> =
  M extends 'value' ? RequiredKeys<S>
    : M extends 'request' ? RequiredKeys<S> | DefaultKeys<P>
      : Exclude<RequiredKeys<S>, DefaultKeys<P>>

/**
 * Present properties are required, the others optional; without `additionalProperties: false`
 * the object stays open: an index signature of `unknown` to read, of `any` in a reply, where it
 * only accepts (the serializer drops what is not declared, and only an index signature of `any`
 * lets an interface value, which has no index signature, through). The parts are joined into one
 * mapped object type (homomorphic, so `?` is kept per property) that is shown with its properties.
 */
type ObjectType<S, Root, D extends number, M extends SchemaMode> =
  (S extends { readonly properties: infer P } ? PropertiesType<P, PresentKeys<S, P, M>, Root, D, M> : unknown) &
  (S extends { readonly additionalProperties: false } ? unknown : M extends 'reply' ? { [key: string]: any } : { [key: string]: unknown }) extends infer O
    ? unknown extends O ? unknown : { [K in keyof O]: O[K] }
    : never

// every property optional, then the present ones again without `?` (no per-key conditional:
// the intersection makes a required property's type `T & (T | undefined)`, that is `T`)
type PropertiesType<P, R, Root, D extends number, M extends SchemaMode> =
  { -readonly [K in keyof P]?: SchemaToType<P[K], Root, D, M> } &
  ([R] extends [never] ? unknown : { -readonly [K in R & keyof P]-?: SchemaToType<P[K], Root, D, M> })

/**
 * `$ref` targets: `#...` points into the current document; `id`, `id#` and `id#/pointer` into a
 * schema of `SchemaRegistry`. Anything else is `unknown`.
 */
type RefToType<R extends string, Root, D extends number, M extends SchemaMode> =
  R extends `#${infer Pointer}` ? PointerToType<Root, Pointer, Root, D, M>
    : R extends keyof SchemaRegistry ? SchemaToType<SchemaRegistry[R], SchemaRegistry[R], D, M>
      : R extends `${infer Id}#${infer Pointer}`
        ? Id extends keyof SchemaRegistry ? PointerToType<SchemaRegistry[Id], Pointer, SchemaRegistry[Id], D, M> : unknown
        : unknown

/** A JSON pointer into a schema, one `/keyword/name` step at a time (`definitions`, `$defs`, `properties`). */
type PointerToType<S, Pointer extends string, Root, D extends number, M extends SchemaMode> =
  Pointer extends '' | '/' ? SchemaToType<S, Root, D, M>
    : Pointer extends `/${infer Keyword}/${infer Rest}`
      ? Keyword extends 'definitions' | '$defs' | 'properties'
        ? S extends { readonly [K in Keyword]: infer Children }
          ? Rest extends `${infer Name}/${infer Deeper}`
            ? Name extends keyof Children ? PointerToType<Children[Name], `/${Deeper}`, Root, D, M> : unknown
            : Rest extends keyof Children ? SchemaToType<Children[Rest], Root, D, M> : unknown
          : unknown
        : unknown
      : unknown
