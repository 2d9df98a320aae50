/**
 * Fastify 5's helper types: the method names (QUERY and the WebDAV methods of `addHttpMethod`, any
 * other string accepted), status-code keys of the `Reply` generic, header names. The raw server,
 * request and reply types and the generic defaults are the same on both lines (../utils).
 */
import type * as http from 'node:http'

export type { RawServerBase, RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RequestBodyDefault, RequestQuerystringDefault, RequestParamsDefault, RequestHeadersDefault, ContextConfigDefault, ReplyDefault } from '../utils'

/** A literal union that still accepts any other value of its primitive (editors keep suggesting the literals). */
export type Autocomplete<T> = T | ((T extends string ? string : T extends number ? number : T extends boolean ? boolean : never) & Record<never, never>)

type KnownMethod = 'DELETE' | 'GET' | 'HEAD' | 'PATCH' | 'POST' | 'PUT' | 'OPTIONS' | 'QUERY' |
  'PROPFIND' | 'PROPPATCH' | 'MKCOL' | 'COPY' | 'MOVE' | 'LOCK' | 'UNLOCK' | 'TRACE' | 'SEARCH' | 'REPORT' | 'MKCALENDAR'

/** The methods of `route({ method })`, in either case; other strings pass (methods added with `addHttpMethod`). */
export type HTTPMethods = Autocomplete<KnownMethod | Lowercase<KnownMethod>>

type Digit = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9
type CodeClass = 1 | 2 | 3 | 4 | 5
type ToNumber<S extends string> = S extends `${infer N extends number}` ? N : never
/** 100 to 599. */
export type HttpCodes = ToNumber<`${CodeClass}${Digit}${Digit}`>
/** The keys of a per-status `Reply` generic: a code or a class such as `'4xx'`. */
export type HttpKeys = HttpCodes | `${Digit}xx`

export type StatusCodeReply = { [Key in HttpKeys]?: unknown }

/** The codes `reply.code()` accepts for the keys of a `Reply` generic (every number when it has none). */
export type ReplyKeysToCodes<Key> = [Key] extends [never]
  ? number
  : Key extends HttpCodes
    ? Key
    : Key extends `${infer C extends CodeClass}xx` ? ToNumber<`${C}${Digit}${Digit}`> : number

/** The class key of a code: 404 -> '4xx'. */
export type CodeToReplyKey<Code extends number> = `${Code}` extends `${infer C extends CodeClass}${number}` ? `${C}xx` : never

/** Header names as they arrive: lowercased keys of a `Headers` generic. */
export type RecordKeysToLowercase<Input> = Input extends Record<string, unknown>
  ? { [Key in keyof Input as Key extends string ? Lowercase<Key> : Key]: Input[Key] }
  : Input

type KnownKeys<T> = { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] }

/** A header name: node's known outgoing headers, or any string. */
export type HttpHeader = keyof KnownKeys<http.OutgoingHttpHeaders> | (string & Record<never, never>)
