/**
 * Compile-time assertions for the inference type tests (nothing here runs). A failed assertion is
 * a compile error, which test/types/inference.test.ts reports.
 */

/** Strictly the same type (distinguishes `any`, `unknown` and spelling-equivalent intersections). */
export type Equal<X, Y> = (<T>() => T extends X ? 1 : 2) extends (<T>() => T extends Y ? 1 : 2) ? true : false

export type IsAny<T> = 0 extends (1 & T) ? true : false

/** The same values, however the object types are spelled: assignable both ways, and `any` only equals `any`. */
export type Same<X, Y> =
  IsAny<X> extends true ? IsAny<Y>
    : IsAny<Y> extends true ? false
      : [X] extends [Y] ? ([Y] extends [X] ? true : false) : false

/** `expectType<number>()(value)`: fails to compile unless the value's type is the same as `number`. */
export declare function expectType<Expected> (): <Actual>(actual: Actual, ...mismatch: Same<Actual, Expected> extends true ? [] : ['type differs from the expected one', Actual]) => void

/** `assertType<Equal<A, B>>()`: fails to compile unless the argument is `true`. */
export declare function assertType<T extends true> (): void
