/**
 * The router's fast path: a request whose method and path (the URL up to its first '?') name a
 * route without parameters, wildcards or constraints is answered from a table indexed by path
 * length (see below) instead of a walk of find-my-way's tree. Whatever the table cannot answer with certainty goes to find-my-way:
 * any other URL (percent-encoded, trailing slash, duplicate slashes, other case, '#', ';', an
 * absolute-form URL) misses the table, and once any route declares constraints (version, host, a
 * custom strategy) the table is switched off for good, since find-my-way may then refuse an
 * unconstrained route to a request that carries a constraint value. The handler gets what
 * find-my-way would give it: a fresh null-prototype params object and the querystring parser's result.
 *
 * The table is indexed by path length, then compared: a request's URL is a new string each time, and
 * a Map keyed by it would hash every character of it on every request (V8 caches a string's hash,
 * but this string is never seen again); an array index and one string comparison cost less. A length
 * shared by more than {@link SCAN_LIMIT} paths gets a Map of its own, so a server with a thousand
 * routes of one length still pays one lookup.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { RouteContext } from '../lifecycle/route-context'

import type { RouteHandler as Handler } from './router'

interface StaticEntry { handler: Handler; store: RouteContext }

/** Paths of one length compared one by one up to this many; more go into a Map. */
const SCAN_LIMIT = 8

/** The entries of one method whose paths have one length: a short list, or a Map beyond SCAN_LIMIT. */
class SameLength {
  paths: string[] = []
  entries: StaticEntry[] = []
  map: Map<string, StaticEntry> | null = null

  get (path: string): StaticEntry | undefined {
    if (this.map !== null) return this.map.get(path)
    const paths = this.paths
    for (let i = 0; i < paths.length; i++) if (paths[i] === path) return this.entries[i]
    return undefined
  }

  set (path: string, entry: StaticEntry): void {
    if (this.map !== null) { this.map.set(path, entry); return }
    const i = this.paths.indexOf(path)
    if (i !== -1) { this.entries[i] = entry; return }
    this.paths.push(path)
    this.entries.push(entry)
    if (this.paths.length > SCAN_LIMIT) {
      // from here on the Map alone holds them
      this.map = new Map(this.paths.map((p, k) => [p, this.entries[k]]))
      this.paths = []
      this.entries = []
    }
  }

  delete (path: string): void {
    if (this.map !== null) { this.map.delete(path); return }
    const i = this.paths.indexOf(path)
    if (i === -1) return
    this.paths.splice(i, 1)
    this.entries.splice(i, 1)
  }
}

/** One method's static routes, by path length. */
class PathTable {
  private readonly byLength: Array<SameLength | undefined> = []

  get (path: string): StaticEntry | undefined {
    const group = this.byLength[path.length]
    return group === undefined ? undefined : group.get(path)
  }

  set (path: string, entry: StaticEntry): void {
    let group = this.byLength[path.length]
    if (group === undefined) {
      // holes up to this length stay undefined (and read as such)
      while (this.byLength.length < path.length) this.byLength.push(undefined)
      group = new SameLength()
      this.byLength[path.length] = group
    }
    group.set(path, entry)
  }

  delete (path: string): void {
    this.byLength[path.length]?.delete(path)
  }
}

/** find-my-way's params object for a route without parameters: empty, no prototype. */
const EmptyParams = function EmptyParams () {} as unknown as new () => Record<string, string | undefined>
EmptyParams.prototype = Object.create(null)

/** Characters that make a path something other than one literal URL (params, wildcards, regexps, escapes, delimiters). */
const NOT_LITERAL = /[:*(%#?;]/

export class StaticRoutes {
  /** GET routes apart: most requests are GETs. null once switched off. */
  private get: PathTable | null = new PathTable()
  private byMethod: Map<string, PathTable> | null = new Map()

  /**
   * @param defaultParser the parser is node's `querystring.parse`, whose result for an empty
   *   querystring is a new empty object without prototype: made here without the call
   */
  constructor (private readonly querystringParser: (query: string) => Record<string, unknown>, private readonly defaultParser = false) {}

  add (method: string, path: string, constraints: Record<string, unknown>, handler: Handler, store: RouteContext): void {
    if (this.byMethod === null) return
    if (Object.keys(constraints).length > 0) { this.get = null; this.byMethod = null; return }
    if (path.charCodeAt(0) !== 47 || NOT_LITERAL.test(path) || path.includes('//')) return
    let table = this.byMethod.get(method)
    if (table === undefined) {
      table = method === 'GET' ? this.get as PathTable : new PathTable()
      this.byMethod.set(method, table)
    }
    table.set(path, { handler, store })
  }

  remove (method: string, path: string): void {
    this.byMethod?.get(method)?.delete(path)
  }

  /** Answers the request and returns true, or returns false (find-my-way decides). */
  lookup (req: IncomingMessage, res: ServerResponse): boolean {
    if (this.byMethod === null) return false
    const method = req.method
    const table = method === 'GET' ? this.get : this.byMethod.get(method as string)
    if (table === undefined || table === null) return false
    const url = req.url as string
    const q = url.indexOf('?')
    const entry = table.get(q === -1 ? url : url.slice(0, q))
    if (entry === undefined) return false
    const query = q === -1
      ? (this.defaultParser ? Object.create(null) as Record<string, unknown> : this.querystringParser(''))
      : this.querystringParser(url.slice(q + 1))
    entry.handler(req, res, new EmptyParams(), entry.store, query)
    return true
  }
}
