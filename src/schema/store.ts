/**
 * Shared schemas of one context (`addSchema`), inheriting its ancestors' stores.
 * A child store reads its own schemas and every ancestor's; it writes only its own.
 * Validation and serialization both read shared schemas from here, and resolve `$ref`
 * through ONE resolver (./ref-resolver.ts) built on `getAll()`.
 */
import { errorCodes } from '../errors'

export type JsonSchema = Record<string, unknown>

export class SchemaStore {
  private readonly own = new Map<string, JsonSchema>()
  constructor (readonly parent: SchemaStore | null = null) {}

  /** A child store that sees this store's schemas. */
  child (): SchemaStore {
    return new SchemaStore(this)
  }

  add (schema: unknown): void {
    if (schema === null || typeof schema !== 'object') throw new errorCodes.FST_ERR_SCH_MISSING_ID()
    const id = (schema as JsonSchema).$id
    if (typeof id !== 'string' || id === '') throw new errorCodes.FST_ERR_SCH_MISSING_ID()
    if (this.get(id) !== undefined) throw new errorCodes.FST_ERR_SCH_ALREADY_PRESENT(id)
    this.own.set(id, schema as JsonSchema)
  }

  get (id: string): JsonSchema | undefined {
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) {
      const found = store.own.get(id)
      if (found !== undefined) return found
    }
    return undefined
  }

  /** Own and ancestors' schemas by `$id`, ancestors first (as `getSchemas()` returns them). */
  getAll (): Record<string, JsonSchema> {
    const chain: SchemaStore[] = []
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) chain.unshift(store)
    const all: Record<string, JsonSchema> = {}
    for (const store of chain) for (const [id, schema] of store.own) all[id] = schema
    return all
  }

  /** This store's own schemas (not its ancestors'), by `$id`. */
  ownSchemas (): Record<string, JsonSchema> {
    return Object.fromEntries(this.own)
  }

  get size (): number {
    let n = 0
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) n += store.own.size
    return n
  }
}
