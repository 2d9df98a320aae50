// SchemaToType: JSON Schema keywords -> TypeScript types. Compiled, not run (inference.test.ts).
import type { SchemaToType } from 'trellis'
import { Type } from '@sinclair/typebox'
import { expectType, assertType, type Equal, type Same } from './expect.js'

// ---- type, arrays of types, nullable
assertType<Equal<SchemaToType<{ type: 'string' }>, string>>()
assertType<Equal<SchemaToType<{ type: 'integer' }>, number>>()
assertType<Equal<SchemaToType<{ type: 'number' }>, number>>()
assertType<Equal<SchemaToType<{ type: 'boolean' }>, boolean>>()
assertType<Equal<SchemaToType<{ type: 'null' }>, null>>()
assertType<Equal<SchemaToType<{ type: ['string', 'null'] }>, string | null>>()
assertType<Equal<SchemaToType<{ type: 'integer', nullable: true }>, number | null>>()
assertType<Equal<SchemaToType<{ type: 'integer', nullable: false }>, number>>()
// @ts-expect-error a string schema is not a number
assertType<Equal<SchemaToType<{ type: 'string' }>, number>>()

// ---- objects: required, optional, additionalProperties
const user = {
  type: 'object',
  properties: { name: { type: 'string' }, age: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
  required: ['name'],
  additionalProperties: false
} as const
declare const u: SchemaToType<typeof user>
expectType<string>()(u.name)
expectType<number | undefined>()(u.age)
expectType<string[] | undefined>()(u.tags)
assertType<Same<SchemaToType<typeof user>, { name: string; age?: number; tags?: string[] }>>()
// @ts-expect-error additionalProperties: false closes the object
void u.nickname
// @ts-expect-error a required property cannot be left out
const missing: SchemaToType<typeof user> = { age: 3 }
// @ts-expect-error the property types are checked
const wrong: SchemaToType<typeof user> = { name: 1 }
void missing; void wrong

declare const open: SchemaToType<{ type: 'object', properties: { a: { type: 'string' } } }>
expectType<unknown>()(open.other) // open objects keep an index signature of unknown
expectType<string | undefined>()(open.a)
// no `required`: every property is optional
assertType<Same<SchemaToType<{ type: 'object', properties: { a: { type: 'string' } }, additionalProperties: false }>, { a?: string }>>()
// properties without `type` still describe an object
assertType<Same<SchemaToType<{ properties: { a: { type: 'number' } }, required: ['a'], additionalProperties: false }>, { a: number }>>()

// ---- items (array and tuple form)
assertType<Equal<SchemaToType<{ type: 'array', items: { type: 'number' } }>, number[]>>()
assertType<Equal<SchemaToType<{ type: 'array' }>, unknown[]>>()
assertType<Equal<SchemaToType<{ type: 'array', items: [{ type: 'string' }, { type: 'integer' }] }>, [string, number]>>()

// ---- enum, const
assertType<Equal<SchemaToType<{ enum: ['a', 'b', 3] }>, 'a' | 'b' | 3>>()
assertType<Equal<SchemaToType<{ type: 'string', enum: ['x', 'y'] }>, 'x' | 'y'>>()
assertType<Equal<SchemaToType<{ const: 'only' }>, 'only'>>()
assertType<Equal<SchemaToType<{ enum: ['a'], nullable: true }>, 'a' | null>>()

// ---- anyOf / oneOf / allOf
assertType<Equal<SchemaToType<{ anyOf: [{ type: 'string' }, { type: 'integer' }] }>, string | number>>()
assertType<Equal<SchemaToType<{ oneOf: [{ const: 1 }, { const: 2 }] }>, 1 | 2>>()
assertType<Same<SchemaToType<{
  allOf: [
    { type: 'object', properties: { a: { type: 'string' } }, required: ['a'], additionalProperties: false },
    { type: 'object', properties: { b: { type: 'number' } }, required: ['b'], additionalProperties: false }
  ]
}>, { a: string; b: number }>>()
// a union of shapes narrows on its discriminant
declare const shape: SchemaToType<{
  oneOf: [
    { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } }, required: ['kind', 'r'], additionalProperties: false },
    { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } }, required: ['kind', 'side'], additionalProperties: false }
  ]
}>
if (shape.kind === 'circle') expectType<number>()(shape.r)
else expectType<number>()(shape.side)

// ---- what degrades to unknown (never any, never an error)
assertType<Equal<SchemaToType<{ format: 'email' }>, unknown>>()
assertType<Equal<SchemaToType<{ type: 'nonsense' }>, unknown>>()
assertType<Equal<SchemaToType<{ type: string }>, unknown>>() // a widened literal (schema in a variable without `as const`)
assertType<Equal<SchemaToType<any>, unknown>>()
assertType<Equal<SchemaToType<unknown>, unknown>>()
assertType<Equal<SchemaToType<{ $ref: 'no-such-schema#' }>, unknown>>()
type Nest<S, N extends unknown[]> = N['length'] extends 0 ? S : Nest<{ type: 'array', items: S }, N extends [unknown, ...infer Rest] ? Rest : []>
assertType<Equal<SchemaToType<Nest<{ type: 'string' }, [1, 2, 3, 4, 5, 6, 7, 8, 9]>>, string[][][][][][][][][]>>() // 10 levels: all mapped
assertType<Equal<SchemaToType<Nest<{ type: 'string' }, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]>>, unknown[][][][][][][][][][]>>() // 11 levels: the 11th is unknown

// ---- TypeBox: its own static type (fast path), the same as the equivalent JSON Schema
const tb = Type.Object({ name: Type.String(), age: Type.Optional(Type.Integer()), tags: Type.Optional(Type.Array(Type.String())) })
assertType<Equal<SchemaToType<typeof tb>, { name: string; age?: number; tags?: string[] }>>()
assertType<Same<SchemaToType<typeof tb>, SchemaToType<typeof user>>>()
assertType<Same<SchemaToType<ReturnType<typeof Type.Union<[ReturnType<typeof Type.Literal<'a'>>, ReturnType<typeof Type.Null>]>>>, SchemaToType<{ enum: ['a', null] }>>>()

// ---- $ref through the SchemaRegistry (what addSchema added at run time)
const address = {
  $id: 'address',
  type: 'object',
  properties: { street: { type: 'string' }, zip: { type: 'integer' } },
  required: ['street'],
  definitions: { country: { type: 'string', enum: ['FR', 'DE'] } },
  $defs: { geo: { type: 'array', items: { type: 'number' } } }
} as const
declare module 'trellis' {
  interface SchemaRegistry { address: typeof address }
}
declare const viaRef: SchemaToType<{ $ref: 'address#' }>
expectType<string>()(viaRef.street)
expectType<number | undefined>()(viaRef.zip)
assertType<Same<SchemaToType<{ $ref: 'address' }>, SchemaToType<typeof address>>>()
assertType<Equal<SchemaToType<{ $ref: 'address#/properties/zip' }>, number>>()
assertType<Equal<SchemaToType<{ $ref: 'address#/definitions/country' }>, 'FR' | 'DE'>>()
assertType<Equal<SchemaToType<{ $ref: 'address#/$defs/geo' }>, number[]>>()
assertType<Equal<SchemaToType<{ $ref: 'address#/definitions/nope' }>, unknown>>()
assertType<Equal<SchemaToType<{ $ref: 'adress#' }>, unknown>>() // a misspelt id is unknown, not an error
// a local reference into the same document
assertType<Same<SchemaToType<{ type: 'object', properties: { p: { $ref: '#/definitions/pos' } }, required: ['p'], additionalProperties: false, definitions: { pos: { type: 'integer' } } }>, { p: number }>>()
// @ts-expect-error the registry types the reference: zip is a number
const badZip: SchemaToType<{ $ref: 'address#' }> = { street: 'x', zip: 'ten' }
void badZip
