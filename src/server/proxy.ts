/** Client address resolution behind trusted proxies (the `trustProxy` option), via proxy-addr. */
import type { IncomingMessage } from 'node:http'
import proxyAddr from 'proxy-addr'
import type { FastifyLine } from '../base/version'

export type TrustFn = (address: string, hop: number) => boolean

/**
 * The `trustProxy` option as a function of (address, hop). A hop count trusts that many proxies in
 * Fastify 4; Fastify 5 (`line` 5) trusts no peer for it, since a count cannot tell a proxy from a
 * client that sends enough `X-Forwarded-For` entries itself.
 */
export function compileTrust (trust: unknown, line: FastifyLine = 4): TrustFn | null {
  if (trust === false || trust === undefined || trust === null) return null
  if (trust === true) return () => true
  if (typeof trust === 'function') return trust as TrustFn
  if (typeof trust === 'number') return line === 5 ? () => false : (_address, hop) => hop < trust
  if (typeof trust === 'string') return proxyAddr.compile(trust.split(',').map((s) => s.trim()))
  return proxyAddr.compile(trust as string[])
}

export function clientAddress (req: IncomingMessage, trust: TrustFn): string {
  return proxyAddr(req, trust)
}

export function clientAddresses (req: IncomingMessage, trust: TrustFn): string[] {
  return proxyAddr.all(req, trust)
}
