/**
 * The raw Node.js server, request and response types an instance is built on, and the defaults of
 * the route generics. Names and parameters follow Fastify 4.3's public types so that code written
 * against them compiles against trellis (see docs/typescript.md).
 */
import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'

/** The methods `route({ method })` accepts in Fastify 4.3's types. */
export type HTTPMethods = 'DELETE' | 'GET' | 'HEAD' | 'PATCH' | 'POST' | 'PUT' | 'OPTIONS'

/** Any server trellis can run on: node:http, node:https, node:http2 (plain or TLS). */
export type RawServerBase = http.Server | https.Server | http2.Http2Server | http2.Http2SecureServer
export type RawServerDefault = http.Server

type IsHttp1<Server> = Server extends http.Server | https.Server ? true : false

/** The raw request object of a server type (IncomingMessage for HTTP/1, Http2ServerRequest for HTTP/2). */
export type RawRequestDefaultExpression<RawServer extends RawServerBase = RawServerDefault> =
  IsHttp1<RawServer> extends true ? http.IncomingMessage
    : RawServer extends http2.Http2Server | http2.Http2SecureServer ? http2.Http2ServerRequest : never

/** The raw response object of a server type (ServerResponse for HTTP/1, Http2ServerResponse for HTTP/2). */
export type RawReplyDefaultExpression<RawServer extends RawServerBase = RawServerDefault> =
  IsHttp1<RawServer> extends true ? http.ServerResponse
    : RawServer extends http2.Http2Server | http2.Http2SecureServer ? http2.Http2ServerResponse : never

export type RequestBodyDefault = unknown
export type RequestQuerystringDefault = unknown
export type RequestParamsDefault = unknown
export type RequestHeadersDefault = unknown
export type ContextConfigDefault = unknown
export type ReplyDefault = unknown
