// The parts of tstyche's interface fastify@5.12.8's type tests use, declared for
// conformance/types/run-5.mjs (which checks the assertions itself; these only have to compile).
interface Matchers {
  toBe<T> (target?: T): void
  toBeAssignableTo<T> (target?: T): void
  toBeAssignableFrom<T> (target?: T): void
  toHaveProperty (key: PropertyKey): void
  toBeCallableWith (...args: any[]): void
  // run-5.mjs rewrites `expect(f).type[.not].toBeCallableWith(args)` to `expect(f(args)).type.__callable()`
  __callable (): void
}
interface Expect {
  type: Matchers & { not: Matchers }
}
export declare function expect<T> (value?: T): Expect
export declare function test (name: string, fn: () => void | Promise<void>): void
export declare function it (name: string, fn: () => void | Promise<void>): void
export declare function describe (name: string, fn: () => void): void
