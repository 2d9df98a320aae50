/**
 * Status codes as types, for `reply.code()` on routes with a response schema: the declared keys
 * of `schema.response` (200, '200', '2xx', 'default') become the numbers `code()` accepts.
 */

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
type ClassDigit = 1 | 2 | 3 | 4 | 5

/** 100..599 per class: `CodeRange<2>` is 200 | 201 | … | 299. Computed once per class. */
type CodeRange<C extends ClassDigit> = `${C}${Digit}${Digit}` extends infer T
  ? T extends `${infer N extends number}` ? N : never
  : never

/** The numbers one response-schema key stands for: 200 → 200, '404' → 404, '4xx' → 400..499. */
export type CodesOfKey<K> =
  K extends number ? K
    : K extends `${infer N extends number}` ? N
      : K extends `${infer C extends ClassDigit}xx` ? CodeRange<C>
        : never

/** The first digit of a status code, as the `Nxx` key that covers it. */
export type ClassKey<C extends number> = `${C}` extends `${infer First}${string}` ? `${First}xx` : never

/** Keys of a response map that describe successful replies (2xx codes and '2xx'). */
export type SuccessKeys<K> = K extends number | string ? (`${K}` extends `2${string}` ? K : never) : never

/** The schema `schema.response` declares for status code C: exact code, then `Nxx`, then `default`. */
export type SchemaForCode<R, C extends number> =
  C extends keyof R ? R[C]
    : `${C}` extends keyof R ? R[`${C}` & keyof R]
      : ClassKey<C> extends keyof R ? R[ClassKey<C> & keyof R]
        : 'default' extends keyof R ? R['default' & keyof R]
          : undefined

/** Whether `schema.response` is a map of status codes (rather than absent or a bare schema). */
export type IsStatusMap<R> = [CodesOfKey<keyof R> | Extract<keyof R, 'default'>] extends [never] ? false : true
