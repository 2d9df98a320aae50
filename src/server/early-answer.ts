/**
 * Requests answered before the request path (a 505 for an HTTP version, a malformed URL, a 503
 * while closing, a parameter too long, a failed constraint, ...) have no request and reply objects,
 * so they are never on `tracing:trellis.request`; they are published once on this plain channel,
 * as the answer begins, for a subscriber (trellis/otel) to give them a span and a measurement
 * (docs/observability.md). Without a subscriber it costs one check, on these requests only.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import type { IncomingMessage, ServerResponse } from 'node:http'

export const EARLY_ANSWER_CHANNEL = 'trellis.request.early'

/** `server`: the application that answers; `error`: the framework error of the answer, if it has one. */
export interface EarlyAnswerMessage { req: IncomingMessage, res: ServerResponse, server: unknown, error: unknown }

const channel = diagnosticsChannel.channel(EARLY_ANSWER_CHANNEL)

export function publishEarlyAnswer (req: IncomingMessage, res: ServerResponse, server: unknown, error: unknown): void {
  if (channel.hasSubscribers) channel.publish({ req, res, server, error } satisfies EarlyAnswerMessage)
}
