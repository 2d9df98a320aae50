/**
 * The call signatures of hook handlers, shared by the Fastify 4 line (../hooks) and the Fastify 5
 * line (../v5/hooks). They take the line's instance (`this`), request, reply and `done` types as
 * parameters; each line's hook handler interfaces (`onRequestHookHandler`, …) extend them with its
 * own generic parameters, which TypeScript cannot share between declarations. Not exported by
 * either entry: users see the line's interfaces only.
 */
import type { Readable } from 'node:stream'

/** The request body stream preParsing hooks receive and may replace. */
export interface RequestPayload extends Readable {
  receivedEncodedLength?: number
}

/** `done` of preSerialization and onSend: nothing, an error, or (null, new payload). */
export interface DoneWithPayload<DefaultError extends Error> {
  (): void
  <TError extends Error = DefaultError>(err: TError): void
  (err: null, res: unknown): void
}

/** onRequest, preValidation, preHandler, onResponse, onTimeout: (request, reply, done). */
export interface RequestHookSignature<This, Request, Reply, Done> {
  (this: This, request: Request, reply: Reply, done: Done): void
}

export interface RequestAsyncHookSignature<This, Request, Reply> {
  (this: This, request: Request, reply: Reply): Promise<unknown>
}

/** preParsing: (request, reply, payload, done), `done` may pass a new payload stream. */
export interface PreParsingHookSignature<This, Request, Reply, DefaultError extends Error> {
  (this: This, request: Request, reply: Reply, payload: RequestPayload, done: <TError extends Error = DefaultError>(err?: TError | null, res?: RequestPayload) => void): void
}

export interface PreParsingAsyncHookSignature<This, Request, Reply> {
  (this: This, request: Request, reply: Reply, payload: RequestPayload): Promise<RequestPayload | unknown>
}

/** preSerialization and onSend: (request, reply, payload, done). */
export interface PayloadHookSignature<This, Request, Reply, Payload, Done> {
  (this: This, request: Request, reply: Reply, payload: Payload, done: Done): void
}

export interface PayloadAsyncHookSignature<This, Request, Reply, Payload> {
  (this: This, request: Request, reply: Reply, payload: Payload): Promise<unknown>
}

/** onError: (request, reply, error, done); `done` takes nothing (the error handler answers). */
export interface ErrorHookSignature<This, Request, Reply, TError> {
  (this: This, request: Request, reply: Reply, error: TError, done: () => void): void
}

export interface ErrorAsyncHookSignature<This, Request, Reply, TError> {
  (this: This, request: Request, reply: Reply, error: TError): Promise<unknown>
}

/** onRequestAbort: the request only (there is nothing to reply to). */
export interface AbortHookSignature<This, Request, Done> {
  (this: This, request: Request, done: Done): void
}

export interface AbortAsyncHookSignature<This, Request> {
  (this: This, request: Request): Promise<unknown>
}

/** onRoute: the route's options (`routePath` without the prefix, `path` with it). */
export interface RouteHookSignature<This, Options> {
  (this: This, opts: Options & { routePath: string, path: string, prefix: string }): Promise<unknown> | void
}

/** onReady, onListen, preClose: `this` is the instance. */
export interface ApplicationHookSignature<This, Done> {
  (this: This, done: Done): void
}

export interface ApplicationAsyncHookSignature<This> {
  (this: This): Promise<unknown>
}
