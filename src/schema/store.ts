/**
 * Shared schemas of one context (`addSchema`), inheriting its ancestors' stores.
 * A child store reads its own schemas and every ancestor's; it writes only its own.
 * Validation and serialization both read shared schemas from here, and resolve `$ref`
 * through ONE resolver (./ref-resolver.ts) built on `getAll()`.
 */
import { errorCodes } from '../base/errors'
import { unwrapFluentSchema } from './fluent'

type JsonSchema = Record<string, unknown>

/**
 * Fastify 4.3's `schemaController.bucket` contract: a user-provided storage for a context's shared
 * schemas. The factory receives the parent context's `getSchemas()` result (undefined for the root).
 */
interface SchemaBucket { add(schema: unknown): void; getSchema(id: string): unknown; getSchemas(): unknown }
export type SchemaBucketFactory = (parentSchemas?: unknown) => SchemaBucket

/** Throws Fastify 4.3's error for a `bucket` option that is not a function. */
function assertBucketFactory (bucket: unknown): asserts bucket is SchemaBucketFactory | undefined {
  if (bucket !== undefined && typeof bucket !== 'function') {
    throw new TypeError(`schemaController.bucket option should be a function, instead got '${typeof bucket}'`)
  }
}

function toRecord (schemas: unknown): Record<string, JsonSchema> {
  if (schemas instanceof Map) return Object.fromEntries(schemas) as Record<string, JsonSchema>
  return schemas !== null && typeof schemas === 'object' ? { ...(schemas as Record<string, JsonSchema>) } : {}
}

export class SchemaStore {
  private readonly own = new Map<string, JsonSchema>()
  /** set when a `schemaController.bucket` stores this context's schemas (own and inherited) */
  private bucket: SchemaBucket | null = null
  constructor (readonly parent: SchemaStore | null = null) {}

  /** A child store that sees this store's schemas; with a bucket factory, a bucket seeded with them. */
  child (bucketFactory?: SchemaBucketFactory): SchemaStore {
    const store = new SchemaStore(this)
    if (bucketFactory !== undefined) store.useBucket(bucketFactory)
    return store
  }

  /**
   * Stores this context's schemas in a bucket from `factory`, seeded with the parent's schemas
   * (`setSchemaController({ bucket })`, or the `schemaController.bucket` server option).
   */
  useBucket (factory: SchemaBucketFactory): void {
    assertBucketFactory(factory)
    this.bucket = factory(this.parent === null ? undefined : this.parent.raw())
  }

  /** What `getSchemas()` returns: the bucket's own answer when there is one, else {@link getAll}. */
  raw (): unknown {
    return this.bucket !== null ? this.bucket.getSchemas() : this.getAll()
  }

  add (input: unknown): void {
    const schema = unwrapFluentSchema(input)
    if (schema === null || typeof schema !== 'object') throw new errorCodes.FST_ERR_SCH_MISSING_ID()
    const id = (schema as JsonSchema).$id
    if (typeof id !== 'string' || id === '') throw new errorCodes.FST_ERR_SCH_MISSING_ID()
    if (this.bucket !== null) { this.bucket.add(schema); return }
    if (this.get(id) !== undefined) throw new errorCodes.FST_ERR_SCH_ALREADY_PRESENT(id)
    this.own.set(id, schema as JsonSchema)
  }

  get (id: string): JsonSchema | undefined {
    if (this.bucket !== null) return this.bucket.getSchema(id) as JsonSchema | undefined
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) {
      const found = store.own.get(id)
      if (found !== undefined) return found
    }
    return undefined
  }

  /** Own and ancestors' schemas by `$id`, ancestors first (as `getSchemas()` returns them). */
  getAll (): Record<string, JsonSchema> {
    if (this.bucket !== null) return toRecord(this.bucket.getSchemas())
    const chain: SchemaStore[] = []
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) chain.unshift(store)
    const all: Record<string, JsonSchema> = {}
    for (const store of chain) for (const [id, schema] of store.own) all[id] = schema
    return all
  }

  /** This store's own schemas (not its ancestors'), by `$id`. */
  ownSchemas (): Record<string, JsonSchema> {
    if (this.bucket !== null) return toRecord(this.bucket.getSchemas())
    return Object.fromEntries(this.own)
  }

  get size (): number {
    if (this.bucket !== null) return Object.keys(this.getAll()).length
    let n = 0
    for (let store: SchemaStore | null = this; store !== null; store = store.parent) n += store.own.size
    return n
  }
}
