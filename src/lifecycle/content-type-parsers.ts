/**
 * Per-context registry of content-type parsers (Fastify's `addContentTypeParser` family).
 *
 * Matching is decided by the single RFC 9110 parser in `./media-type` — never by substring search
 * on the raw header (Fastify 4.3 used `header.indexOf(registered)`, which is how
 * `text/plain; x="application/json"` or `application/jsonx` reached the JSON parser:
 * CVE-2022-41919). See {@link ContentTypeParsers.lookup} for the exact rules.
 */
import secureJson from 'secure-json-parse'
import { errorCodes } from '../base/errors'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import { parseMediaType, type MediaType } from '../base/media-type'
import { DEFAULT_JSON_DEPTH_LIMIT, jsonDepthExceeds } from './json-depth'
import type { FastifyLine } from '../base/version'

const {
  FST_ERR_CTP_INVALID_TYPE,
  FST_ERR_CTP_EMPTY_TYPE,
  FST_ERR_CTP_INVALID_HANDLER,
  FST_ERR_CTP_ALREADY_PRESENT,
  FST_ERR_CTP_INVALID_PARSE_TYPE,
  FST_ERR_CTP_EMPTY_JSON_BODY,
  FST_ERR_CTP_JSON_TOO_DEEP
} = errorCodes

/** How a `parseAs` parser receives the body. */
export type ParseAs = 'string' | 'buffer'

/** Options of {@link ContentTypeParsers.add}. */
export interface ParserOptions {
  /** Read the whole body first and hand it to the parser as a utf-8 string or a Buffer. */
  parseAs?: ParseAs
  /**
   * Maximum body size in bytes for this parser (only enforced for `parseAs` parsers, as in
   * Fastify 4.3). A route's `bodyLimit` takes precedence; unset means the registry's `bodyLimit`.
   */
  bodyLimit?: number
}

/**
 * A content-type parser, in one of Fastify's forms:
 * - stream form: `(request, payload: Readable, done(err, body))` or `async (request, payload) => body`
 * - parseAs form: `(request, body: string | Buffer, done(err, body))` or `async (request, body) => body`
 */
export type ContentTypeParserFn = (...args: any[]) => unknown

/** Fastify's prototype-poisoning policies (secure-json-parse `protoAction` / `constructorAction`). */
export type PoisoningAction = 'error' | 'remove' | 'ignore'

/** Constructor options of {@link ContentTypeParsers}. */
interface ContentTypeParsersOptions {
  /** the server's body limit: the default for parsers added without their own `bodyLimit` */
  bodyLimit: number
  onProtoPoisoning: PoisoningAction
  onConstructorPoisoning: PoisoningAction
  /** deepest nesting the default JSON parser accepts (0: no limit); default 128 */
  jsonDepthLimit?: number
  /**
   * The Fastify line (default 4). Fastify 5 refuses a string that is not a media type, and
   * hasContentTypeParser() of something neither a string nor a RegExp, with FST_ERR_CTP_INVALID_TYPE.
   */
  line?: FastifyLine
}

/** What {@link ContentTypeParsers.lookup} returns: one registered parser and its settings. */
export interface ResolvedParser {
  /** what it was registered with: a string as given, a RegExp, or `'*'` for the catch-all */
  readonly contentType: string | RegExp
  /** the parser function */
  readonly fn: ContentTypeParserFn
  /** `'string'` / `'buffer'` for parseAs parsers, `undefined` for stream parsers */
  readonly parseAs: ParseAs | undefined
  /** the parser's own body limit (already defaulted to the registry's when it was added) */
  readonly bodyLimit: number
  /** `parseAs === 'string'` (Fastify's `Parser#asString`) */
  readonly asString: boolean
  /** `parseAs === 'buffer'` (Fastify's `Parser#asBuffer`) */
  readonly asBuffer: boolean
}

type DoneFn = (err: Error | null, body?: unknown) => void

/**
 * Fastify's `getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning)`: a parseAs-string
 * parser built on secure-json-parse.
 * - empty body → `FST_ERR_CTP_EMPTY_JSON_BODY` (400)
 * - invalid JSON, or a `__proto__` / `constructor.prototype` key under the `'error'` policy → the
 *   `SyntaxError` from the parser with `statusCode = 400` set on it (exactly what 4.3 does, so
 *   `err instanceof SyntaxError` checks keep working).
 * - nested deeper than `depthLimit` (trellis's `jsonDepthLimit`) → `FST_ERR_CTP_JSON_TOO_DEEP` (400)
 * - Fastify 5 (`line` 5): invalid or poisoned JSON is `FST_ERR_CTP_INVALID_JSON_BODY` (400) instead
 *   of the parser's SyntaxError
 */
export function getDefaultJsonParser (onProtoPoisoning: PoisoningAction = 'error', onConstructorPoisoning: PoisoningAction = 'error', depthLimit = DEFAULT_JSON_DEPTH_LIMIT, line: FastifyLine = 4): (request: unknown, body: string | Buffer, done: DoneFn) => void {
  return function defaultJsonParser (_request: unknown, body: string | Buffer, done: DoneFn): void {
    if (body == null || body.length === 0) {
      done(new FST_ERR_CTP_EMPTY_JSON_BODY(), undefined)
      return
    }
    if (typeof body !== 'string') body = body.toString('utf8')
    // valid JSON nested deeper than the limit has at least 2 × (limit + 1) characters: a shorter
    // body is only scanned when it fails to parse (to answer the same error as a scan before parsing)
    const short = body.length < 2 * (depthLimit + 1)
    if (!short && jsonDepthExceeds(body, depthLimit)) {
      done(new FST_ERR_CTP_JSON_TOO_DEEP(depthLimit), undefined)
      return
    }
    let json: unknown
    try {
      json = typeof body === 'string' && cannotBePoisoned(body)
        ? JSON.parse(body)
        : secureJson.parse(body, undefined, { protoAction: onProtoPoisoning, constructorAction: onConstructorPoisoning })
    } catch (err) {
      if (short && jsonDepthExceeds(body, depthLimit)) {
        done(new FST_ERR_CTP_JSON_TOO_DEEP(depthLimit), undefined)
        return
      }
      if (line === 5) { done(new errorCodesAddedInV5.FST_ERR_CTP_INVALID_JSON_BODY(), undefined); return }
      const e = (err instanceof Error ? err : new SyntaxError(String(err))) as Error & { statusCode?: number }
      e.statusCode = 400
      done(e, undefined)
      return
    }
    done(null, json)
  }
}

/**
 * True when secure-json-parse would return plain `JSON.parse(text)`: no byte-order mark, and neither
 * a `__proto__` nor a `constructor` key can be spelled (its checks look for those words, each
 * character literal or `\u`-escaped; without any `\u` escape the literal word must be there).
 * Three native substring searches instead of its two regular expressions over the whole text.
 */
function cannotBePoisoned (text: string): boolean {
  return text.charCodeAt(0) !== 0xFEFF && text.indexOf('\\u') === -1 && text.indexOf('__proto__') === -1 && text.indexOf('constructor') === -1
}

/** Fastify's `defaultTextParser`: a parseAs-string parser that returns the body unchanged. */
export function defaultTextParser (_request: unknown, body: string | Buffer, done: DoneFn): void {
  done(null, body)
}

/** One registration. Immutable once made, so registries can share entries. */
interface Entry extends ResolvedParser {
  /** identity used by has/remove/duplicate detection */
  readonly key: string
  /** parsed registration for string parsers that are valid media types */
  readonly media: MediaType | null
  /** true for the two built-in parsers: adding the same type once replaces them */
  readonly isDefault: boolean
}

/** lookups remembered per registry; bounded so attacker-chosen headers cannot grow it */
const CACHE_SIZE = 100
/** headers longer than this are resolved every time rather than cached */
const MAX_CACHED_HEADER = 256
const NONE: unique symbol = Symbol('no parser')
const UNDEFINED_HEADER_KEY = '\u0000undefined'

function regexpKey (re: RegExp): string {
  return 're:' + re.toString()
}

/**
 * Canonical identity of a string registration: for a valid media type, the essence followed by
 * its parameters sorted by name (so `Application/JSON` and `application/json` are the same
 * registration); otherwise the trimmed, lowercased text.
 */
function stringKey (contentType: string): { key: string, media: MediaType | null } {
  const media = parseMediaType(contentType)
  if (media === null) return { key: 'raw:' + contentType.trim().toLowerCase(), media: null }
  const names = Object.keys(media.parameters).sort()
  let key = 'mt:' + media.essence
  for (const n of names) key += ';' + n + '=' + JSON.stringify(normalizeParamValue(n, media.parameters[n]))
  return { key, media }
}

/** `charset` values are case-insensitive (RFC 9110 §8.3.2); other parameter values compare exactly. */
function normalizeParamValue (name: string, value: string): string {
  return name === 'charset' ? value.toLowerCase() : value
}

function keyOf (contentType: string | RegExp): string {
  if (contentType instanceof RegExp) return regexpKey(contentType)
  if (contentType === '*') return '*'
  return stringKey(contentType).key
}

/**
 * The content-type parsers of one encapsulation context.
 *
 * - The constructor installs the defaults: `application/json` (secure-json-parse with the given
 *   poisoning policies) and `text/plain` (the body as a string), both parseAs `'string'`.
 * - {@link child} gives an independent copy: whatever the child adds or removes never reaches the
 *   parent or its siblings, and later changes to the parent do not reach an existing child
 *   (Fastify snapshots the parent's parsers when a plugin's context is created).
 */
export class ContentTypeParsers {
  /** Fastify's `getDefaultJsonParser(onProto, onConstructor)` result for this registry's policies. */
  readonly defaultJsonParser: (request: unknown, body: string | Buffer, done: DoneFn) => void
  /** Fastify's `defaultTextParser`. */
  readonly defaultTextParser: (request: unknown, body: string | Buffer, done: DoneFn) => void = defaultTextParser
  /** the body limit given to parsers added without one */
  readonly bodyLimit: number
  readonly onProtoPoisoning: PoisoningAction
  readonly onConstructorPoisoning: PoisoningAction
  readonly line: FastifyLine

  /** string registrations, most recently added first */
  private strings: Entry[]
  /** RegExp registrations, most recently added first */
  private regexps: Entry[]
  /** the `'*'` registration */
  private catchAll: Entry | undefined
  /** header value → resolved parser (or NONE); insertion-ordered Map, oldest entry evicted first (Fastify's `cache`) */
  readonly cache = new Map<string, Entry | typeof NONE>()

  /**
   * @param options the server's `bodyLimit`, `onProtoPoisoning` and `onConstructorPoisoning`
   */
  constructor (options: ContentTypeParsersOptions, /** @internal used by child() */ from?: ContentTypeParsers) {
    this.bodyLimit = options.bodyLimit
    this.onProtoPoisoning = options.onProtoPoisoning
    this.onConstructorPoisoning = options.onConstructorPoisoning
    this.line = options.line ?? 4
    if (from !== undefined) {
      this.defaultJsonParser = from.defaultJsonParser
      this.strings = from.strings.slice()
      this.regexps = from.regexps.slice()
      this.catchAll = from.catchAll
      return
    }
    this.defaultJsonParser = getDefaultJsonParser(options.onProtoPoisoning, options.onConstructorPoisoning, options.jsonDepthLimit, this.line)
    this.strings = []
    this.regexps = []
    this.catchAll = undefined
    this.strings.push(
      makeEntry('application/json', this.defaultJsonParser, 'string', options.bodyLimit, true),
      makeEntry('text/plain', defaultTextParser, 'string', options.bodyLimit, true)
    )
  }

  /**
   * Registers a parser (Fastify's `addContentTypeParser`, minus the started-server check, which is
   * the core's). `contentType` is a string (a media type such as `'application/xml'` or
   * `'application/vnd.x; version=2'`), a RegExp, `'*'` (the catch-all) or an array of these.
   *
   * Throws, as Fastify 4.3: `FST_ERR_CTP_INVALID_TYPE` (not a string/RegExp),
   * `FST_ERR_CTP_EMPTY_TYPE` (empty or blank string), `FST_ERR_CTP_INVALID_HANDLER` (parser not a
   * function), `FST_ERR_CTP_ALREADY_PRESENT` (same type registered already — except that each of
   * the two defaults may be replaced once, and `'*'` may always be replaced),
   * `FST_ERR_CTP_INVALID_PARSE_TYPE` (parseAs other than 'string' / 'buffer').
   * With an array, the elements before a failing one stay added (as in 4.3).
   */
  add (contentType: string | RegExp | Array<string | RegExp>, opts: ParserOptions | undefined | null, parser: ContentTypeParserFn): void {
    if (typeof opts === 'function' && parser === undefined) {
      parser = opts as ContentTypeParserFn
      opts = undefined
    }
    if (Array.isArray(contentType)) {
      for (const ct of contentType) this.addOne(ct, opts ?? {}, parser)
      return
    }
    this.addOne(contentType, opts ?? {}, parser)
  }

  private addOne (contentType: string | RegExp, opts: ParserOptions, parser: ContentTypeParserFn): void {
    const isString = typeof contentType === 'string'
    if (!isString && !(contentType instanceof RegExp)) throw new FST_ERR_CTP_INVALID_TYPE()
    if (isString && contentType.trim().length === 0) throw new FST_ERR_CTP_EMPTY_TYPE()
    if (typeof parser !== 'function') throw new FST_ERR_CTP_INVALID_HANDLER()

    const key = keyOf(contentType)
    const existing = this.find(key)
    if (existing !== undefined && !existing.isDefault && key !== '*') {
      // Fastify 5 names the type as it keys it (trimmed, lowercased)
      throw new FST_ERR_CTP_ALREADY_PRESENT(isString && this.line === 5 ? contentType.trim().toLowerCase() : String(contentType))
    }
    if (isString && this.line === 5 && key.startsWith('raw:') && key !== 'raw:*') throw new FST_ERR_CTP_INVALID_TYPE()
    if (opts.parseAs !== undefined && opts.parseAs !== 'string' && opts.parseAs !== 'buffer') {
      throw new FST_ERR_CTP_INVALID_PARSE_TYPE(opts.parseAs)
    }
    const bodyLimit = isPositiveLimit(opts.bodyLimit) ? opts.bodyLimit : this.bodyLimit
    const entry = makeEntry(contentType, parser, opts.parseAs, bodyLimit, false)

    if (key === '*') {
      this.catchAll = entry
    } else {
      if (existing !== undefined) this.removeKey(key)
      if (contentType instanceof RegExp) this.regexps.unshift(entry)
      else this.strings.unshift(entry)
    }
    this.cache.clear()
  }

  /**
   * Whether a parser is registered for exactly this type (Fastify's `hasContentTypeParser`):
   * strings compare as media types (case-insensitive type/subtype, same parameters), RegExps by
   * source and flags, `'*'` is true once a catch-all was added. It does not run a lookup:
   * `has('image/png')` is false even when `/^image\//` is registered.
   */
  has (contentType: string | RegExp): boolean {
    if (typeof contentType !== 'string' && !(contentType instanceof RegExp)) {
      if (this.line === 5) throw new FST_ERR_CTP_INVALID_TYPE()
      return false
    }
    return this.find(keyOf(contentType)) !== undefined
  }

  /**
   * Removes the parsers for these types (Fastify's `removeContentTypeParser`); unknown types are
   * ignored. Throws `FST_ERR_CTP_INVALID_TYPE` for an element that is neither string nor RegExp.
   */
  remove (contentType: string | RegExp | Array<string | RegExp>): boolean {
    const list = Array.isArray(contentType) ? contentType : [contentType]
    let removed = false
    for (const ct of list) {
      if (typeof ct !== 'string' && !(ct instanceof RegExp)) throw new FST_ERR_CTP_INVALID_TYPE()
      if (this.removeKey(keyOf(ct))) removed = true
    }
    this.cache.clear()
    return removed
  }

  /** Removes every parser, the defaults and the catch-all included (Fastify's `removeAllContentTypeParsers`). */
  removeAll (): void {
    this.strings = []
    this.regexps = []
    this.catchAll = undefined
    this.cache.clear()
  }

  /** A registry for a child context: starts as a copy of this one, then evolves independently. */
  child (): ContentTypeParsers {
    return new ContentTypeParsers(
      { bodyLimit: this.bodyLimit, onProtoPoisoning: this.onProtoPoisoning, onConstructorPoisoning: this.onConstructorPoisoning, line: this.line },
      this
    )
  }

  /**
   * Finds the parser for a `Content-Type` header value. Never throws.
   *
   * 1. The header is parsed with {@link parseMediaType}. Absent, empty or invalid headers
   *    (`application/json garbage`, `constructor`, `application/json charset=utf-8`) match no
   *    specific parser — only the catch-all. (A string registration that is itself not a valid
   *    media type, e.g. `'text'`, matches a header equal to it, trimmed and case-insensitively.)
   * 2. String parsers: the essence must be equal (case-insensitive) and every parameter of the
   *    registration must be present in the header with the same value (`charset` compared
   *    case-insensitively); extra header parameters are ignored. So `'application/json'` matches
   *    `application/json; charset=utf-8` but never `application/jsonx` or
   *    `text/plain; x="application/json"`. Among several matches the one naming more parameters
   *    wins, then the most recently added.
   * 3. RegExp parsers, most recently added first, are tested against the essence — first the
   *    lowercased essence, then the type/subtype exactly as written in the header (so
   *    case-sensitive patterns written for a spelling keep working). They are never tested
   *    against the parameters, so a pattern cannot be satisfied by text inside a parameter value.
   * 4. The `'*'` catch-all.
   *
   * Results are cached per registry in a bounded FIFO cache (100 entries; headers over 256 characters are
   * not cached), cleared by every add/remove.
   */
  lookup (contentTypeHeader: string | undefined): ResolvedParser | undefined {
    const cacheKey = typeof contentTypeHeader === 'string' ? contentTypeHeader : UNDEFINED_HEADER_KEY
    const cacheable = cacheKey.length <= MAX_CACHED_HEADER
    if (cacheable) {
      // FIFO, not LRU: a hit costs one Map read (no re-insertion on the hot path); the cache stays
      // bounded either way, and the few content types an application sees stay in it.
      const hit = this.cache.get(cacheKey)
      if (hit !== undefined) return hit === NONE ? undefined : hit
    }
    const found = this.resolve(typeof contentTypeHeader === 'string' ? contentTypeHeader : undefined)
    if (cacheable) {
      if (this.cache.size >= CACHE_SIZE) {
        const oldest = this.cache.keys().next().value as string
        this.cache.delete(oldest)
      }
      this.cache.set(cacheKey, found ?? NONE)
    }
    return found
  }

  // -- Fastify 4.3's names for the registry's state (read by code written against Fastify's
  //    internals, e.g. its own test suite); views of the real registrations, nothing stored twice.

  /**
   * Fastify's `getParser`: the parser registered under exactly this string (no lookup, not
   * cached), else {@link lookup}.
   */
  getParser (contentType: string): ResolvedParser | undefined {
    if (this.line === 5 && typeof contentType === 'string') {
      // Fastify 5 looks every type up, cached under its canonical text (`text/html; charset="utf-8"`)
      const media = parseMediaType(contentType)
      return this.lookup(media === null ? contentType : canonicalText(media))
    }
    if (typeof contentType === 'string') {
      for (const e of this.strings) if (e.contentType === contentType) return e
    }
    return this.lookup(contentType)
  }

  /**
   * Fastify's `existingParser`: whether adding this type would be refused as already present.
   * The two defaults count only once replaced; `'*'` never counts (it may always be replaced).
   */
  existingParser (contentType: string | RegExp): boolean {
    if (contentType === '*') return false
    if (typeof contentType !== 'string' && !(contentType instanceof RegExp)) return false
    const e = this.find(keyOf(contentType))
    return e !== undefined && !e.isDefault
  }

  /**
   * Fastify's `customParsers`: registrations by type as given (RegExps by their source text, the
   * catch-all under `''`), as a Map (Fastify 4.29 and 5) whose entries are also its own properties
   * (Fastify 4.3's plain object).
   */
  get customParsers (): Map<string, ResolvedParser> & Record<string, ResolvedParser> {
    const out = new Map<string, ResolvedParser>() as Map<string, ResolvedParser> & Record<string, ResolvedParser>
    const put = (key: string, e: ResolvedParser): void => {
      out.set(key, e)
      Object.defineProperty(out, key, { value: e, enumerable: true, configurable: true })
    }
    for (const e of this.strings) put(e.contentType as string, e)
    for (const e of this.regexps) put(String(e.contentType), e)
    if (this.catchAll !== undefined) put('', this.catchAll)
    return out
  }

  /** Fastify's `parserList`: the string types, most recently added first. */
  get parserList (): string[] {
    return this.strings.map((e) => e.contentType as string)
  }

  /** Fastify's `parserRegExpList`: the RegExp types, most recently added first. */
  get parserRegExpList (): RegExp[] {
    return this.regexps.map((e) => e.contentType as RegExp)
  }

  private resolve (header: string | undefined): Entry | undefined {
    if (header === undefined) return this.catchAll
    const media = parseMediaType(header)
    if (media === null) {
      const raw = 'raw:' + header.trim().toLowerCase()
      for (const e of this.strings) if (e.media === null && e.key === raw) return e
      return this.catchAll
    }

    let best: Entry | undefined
    let bestParams = -1
    for (const e of this.strings) {
      const m = e.media
      if (m === null || m.essence !== media.essence) continue
      const names = Object.keys(m.parameters)
      if (names.length <= bestParams) continue
      let ok = true
      for (const n of names) {
        const v = media.parameters[n]
        if (v === undefined || normalizeParamValue(n, v) !== normalizeParamValue(n, m.parameters[n])) { ok = false; break }
      }
      if (ok) { best = e; bestParams = names.length }
    }
    if (best !== undefined) return best

    if (this.regexps.length > 0) {
      const trimmed = header.trim()
      const semi = trimmed.indexOf(';')
      const asWritten = (semi === -1 ? trimmed : trimmed.slice(0, semi)).trimEnd()
      for (const e of this.regexps) {
        const re = e.contentType as RegExp
        if (testRegExp(re, media.essence) || (asWritten !== media.essence && testRegExp(re, asWritten))) return e
      }
    }
    return this.catchAll
  }

  private find (key: string): Entry | undefined {
    if (key === '*') return this.catchAll
    const list = key.startsWith('re:') ? this.regexps : this.strings
    for (const e of list) if (e.key === key) return e
    return undefined
  }

  /** Removes the registration with this key; true if there was one. */
  private removeKey (key: string): boolean {
    if (key === '*') {
      const had = this.catchAll !== undefined
      this.catchAll = undefined
      return had
    }
    const before = key.startsWith('re:') ? this.regexps : this.strings
    const after = before.filter(e => e.key !== key)
    if (key.startsWith('re:')) this.regexps = after
    else this.strings = after
    return after.length !== before.length
  }
}

/** `type/subtype; name="value"`: one spelling of a media type (Fastify 5's ContentType#toString). */
function canonicalText (media: MediaType): string {
  let text = media.essence
  for (const name in media.parameters) text += '; ' + name + '="' + media.parameters[name].replace(/["\\]/g, '\\$&') + '"'
  return text
}

function testRegExp (re: RegExp, value: string): boolean {
  // global/sticky patterns keep state in lastIndex; reset so every lookup is independent
  if (re.global || re.sticky) re.lastIndex = 0
  return re.test(value)
}

/** A usable byte limit: a finite number above 0 (anything else means "not set here"). */
export function isPositiveLimit (n: unknown): n is number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0
}

function makeEntry (contentType: string | RegExp, fn: ContentTypeParserFn, parseAs: ParseAs | undefined, bodyLimit: number, isDefault: boolean): Entry {
  let key: string
  let media: MediaType | null = null
  if (contentType instanceof RegExp) key = regexpKey(contentType)
  else if (contentType === '*') key = '*'
  else ({ key, media } = stringKey(contentType))
  return Object.freeze({
    contentType,
    fn,
    parseAs,
    bodyLimit,
    asString: parseAs === 'string',
    asBuffer: parseAs === 'buffer',
    key,
    media,
    isDefault
  })
}
