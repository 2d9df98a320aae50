/** Client address resolution behind trusted proxies (the `trustProxy` option), via proxy-addr. */
import type { IncomingMessage } from 'node:http'
import proxyAddr from 'proxy-addr'

export type TrustFn = (address: string, hop: number) => boolean

export function compileTrust (trust: unknown): TrustFn | null {
  if (trust === false || trust === undefined || trust === null) return null
  if (trust === true) return () => true
  if (typeof trust === 'function') return trust as TrustFn
  if (typeof trust === 'number') return (_address, hop) => hop < trust
  if (typeof trust === 'string') return proxyAddr.compile(trust.split(',').map((s) => s.trim()))
  return proxyAddr.compile(trust as string[])
}

export function clientAddress (req: IncomingMessage, trust: TrustFn): string {
  return proxyAddr(req, trust)
}

export function clientAddresses (req: IncomingMessage, trust: TrustFn): string[] {
  return proxyAddr.all(req, trust)
}
