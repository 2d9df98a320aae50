/**
 * The module pack `trellis build` writes beside the compiled schemas (docs/deployment.md): trellis'
 * own modules and the packages it loads at start, their sources in ONE script, so that a process
 * started with TRELLIS_AOT_DIR loads them without resolving, opening and compiling each file:
 *
 *   modules.js        one script evaluating to a list of [path, requires, wrapper]: `path` relative
 *                     to trellis' dist/lib directory, `requires` maps each literal require() of the
 *                     module to the index of the packed module it names, `wrapper` is the module's
 *                     source inside the function Node's own loader would wrap it in
 *   modules.json      format, the runtime that built it (`node`, `bun`, `deno`), the pack's byte
 *                     length and, per module, its path, size and mtime on disk when packed: any
 *                     module changed since, or another runtime, ignores the pack (TRLAOT002)
 *   modules.v8cache   V8's code cache of modules.js, made by a process that started the
 *                     application from the pack (so the functions a start runs are in it)
 * Pure data and names here; no import of trellis' own code (this loads before any of it).
 */
export const PACK_FORMAT = 1
export const PACK_FILE = 'modules.js'
export const PACK_INDEX_FILE = 'modules.json'
export const PACK_CODE_CACHE_FILE = 'modules.v8cache'

/** Where each packed module came from, as checked at start. */
export interface PackedFile {
  /** relative to dist/lib, with forward slashes */
  path: string
  size: number
  mtimeMs: number
}

export interface PackIndex {
  format: number
  /** the runtime the pack was built under (../base/runtime.ts); absent in packs from before it was recorded: Node.js */
  runtime?: string
  /** byte length of modules.js */
  bytes: number
  files: PackedFile[]
}

/** One entry of modules.js once evaluated. */
export type PackedModule = [path: string, requires: Record<string, number>, wrapper: (exports: unknown, require: unknown, module: unknown, filename: string, dirname: string) => void]

/**
 * Packages loaded when used, not at start, or that applications share with trellis by instance:
 * required from disk as always, never packed.
 */
export const UNPACKED_PACKAGES = new Set([
  'ajv', 'ajv-formats', 'pino', 'pino-pretty', 'light-my-request', 'light-my-request-6', 'yaml', 'swagger-ui-dist', '@opentelemetry/api',
  'trellis', 'fastify', 'typescript'
])

/** The modules the pack starts from (relative to dist/lib): every public entry's implementation and the CLI. */
export const PACK_ROOTS = ['index.js', 'v5.js', 'plugin.js', 'plugin-v5.js', 'bearer-auth.js', 'openapi.js', 'otel.js', 'cli/bin.js']
