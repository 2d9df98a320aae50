/**
 * The HTTP methods an application's routes may use, per Fastify line. Fastify 4 has one fixed list
 * (WebDAV's methods included); Fastify 5 keeps the standard ones, adds QUERY (RFC 10008), and lets
 * an application add others with `addHttpMethod`, each either with or without a body.
 */
import { METHODS } from 'node:http'
import type { FastifyLine } from '../base/version'

const V4_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS', 'SEARCH', 'TRACE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'REPORT', 'MKCALENDAR']
const V5_BODYLESS = ['GET', 'HEAD', 'TRACE']
const V5_BODYWITH = ['DELETE', 'OPTIONS', 'PATCH', 'PUT', 'POST', 'QUERY']

export class HttpMethods {
  /** Methods whose requests never have a body parsed. */
  readonly bodyless: Set<string>
  /** Methods whose requests have a body parsed when they carry one (Fastify 5's rule); empty for Fastify 4, whose rule is per method (body.ts). */
  readonly bodywith: Set<string>
  private readonly v4: ReadonlySet<string> | null
  /** Whether GET and HEAD both have no body (always on Fastify 4; on Fastify 5 until addHttpMethod gives one a body): the request path's shortcut. */
  getAndHeadBodyless = true

  constructor (readonly line: FastifyLine) {
    this.v4 = line === 4 ? new Set(V4_METHODS) : null
    this.bodyless = new Set(line === 4 ? ['GET', 'HEAD'] : V5_BODYLESS)
    this.bodywith = new Set(line === 4 ? [] : V5_BODYWITH)
  }

  has (method: string): boolean {
    return this.v4 !== null ? this.v4.has(method) : this.bodyless.has(method) || this.bodywith.has(method)
  }

  /** Every method, as `all()` registers and `supportedMethods` lists them. */
  list (): string[] {
    return this.v4 !== null ? [...this.v4] : [...this.bodyless, ...this.bodywith]
  }

  /** Fastify 5's `addHttpMethod`: a method node knows, moved to the set its `hasBody` names. Returns whether it was there. */
  add (method: string, hasBody: boolean): boolean {
    const existed = this.has(method)
    ;(hasBody ? this.bodywith : this.bodyless).add(method)
    ;(hasBody ? this.bodyless : this.bodywith).delete(method)
    this.getAndHeadBodyless = this.bodyless.has('GET') && this.bodyless.has('HEAD')
    return existed
  }

  static isKnownToNode (method: unknown): method is string {
    return typeof method === 'string' && METHODS.includes(method)
  }
}
