/**
 * Fastify 5's `lib/content-type.js` on trellis: a `ContentType` view of the one media-type parser
 * (src/base/media-type.ts) that trellis matches body parsers with. A header that parser rejects is
 * invalid (and empty) here as a whole: trellis does not keep the valid parameters of a header whose
 * other parameters are malformed, as Fastify's regular expression does.
 */
import { parseMediaType, type MediaType } from '../../base/media-type'

const CACHE_SIZE = 100
const cache = new Map<string, ContentType>()

class ContentType {
  readonly #media: MediaType | null
  readonly #parameters: Map<string, string>

  /** Fastify's shared cache of parsed headers (100 entries, oldest evicted first). */
  static get cache (): Map<string, ContentType> { return cache }

  /** The parsed header, from the cache when it was parsed before. */
  static from (headerValue: string): ContentType {
    let found = cache.get(headerValue)
    if (found !== undefined) return found
    found = new ContentType(headerValue)
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string)
    cache.set(headerValue, found)
    return found
  }

  constructor (headerValue?: string) {
    this.#media = typeof headerValue === 'string' && headerValue !== 'undefined' ? parseMediaType(headerValue) : null
    this.#parameters = new Map(this.#media === null ? [] : Object.entries(this.#media.parameters))
  }

  get [Symbol.toStringTag] (): string { return 'ContentType' }
  get isEmpty (): boolean { return this.#media === null }
  get isValid (): boolean { return this.#media !== null }
  get mediaType (): string | undefined { return this.#media?.essence }
  get type (): string { return this.#media?.type ?? '' }
  get subtype (): string { return this.#media?.subtype ?? '' }
  get parameters (): Map<string, string> { return this.#parameters }

  /** `type/subtype; name="value"; ...`: the canonical text Fastify keys parsers by. */
  toString (): string {
    let text = this.type + '/' + this.subtype
    for (const [name, value] of this.#parameters) text += '; ' + name + '="' + value + '"'
    return text
  }
}

export = ContentType
