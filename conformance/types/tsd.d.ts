// The assertion functions fastify@4.3.0's type tests import from 'tsd', declared for
// conformance/types/run.mjs (which checks them itself; these only have to compile).
export declare function expectType<T> (value: T): void
export declare function expectNotType<T> (value: any): void
export declare function expectAssignable<T> (value: T): void
export declare function expectNotAssignable<T> (value: any): void
export declare function expectError<T = any> (value: T): void
export declare function expectDeprecated (expression: any): void
export declare function expectNotDeprecated (expression: any): void
export declare function printType (expression: any): void
