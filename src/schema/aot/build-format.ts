/**
 * The directory `trellis build` writes (docs/deployment.md, "Ahead-of-time build"):
 *
 *   manifest.json     versions, the Fastify line, the build id, and each entry's key -> its index in the module
 *   compiled.js       ONE script: every validator (Ajv's standalone code) and serializer (trellis'
 *                     generated source) as a real function, wrapped so nothing runs until used
 *   compiled.v8cache  V8's code cache of compiled.js, made after the build ran every validator's
 *                     wrapper: a start deserializes it instead of parsing (rejected, and parsed,
 *                     when V8's version or flags differ)
 *
 * The keys are the persistent schema cache's (docs/schema-cache.md): a SHA-256 over the schema's
 * content, the shared schemas it may reach, the options and the versions. Pure functions here.
 */
import type { RecordedSerializer } from './recording'
import type { FastifyLine } from '../../base/version'

export const AOT_FORMAT = 1
export const MANIFEST_FILE = 'manifest.json'
export const MODULE_FILE = 'compiled.js'
export const CODE_CACHE_FILE = 'compiled.v8cache'

/** What a build must share with the process that reads it; any difference ignores the build. */
export interface AotIdentity {
  format: number
  /** the runtime (`node`, `bun`, `deno`: ../../base/runtime.ts); manifests from before it was recorded lack it (Node.js) */
  runtime?: string
  trellis: string
  node: string
  ajv: string
  ajvFormats: string
  /** The serializer generator's fingerprint (its files' content), or null when unknown. */
  generator: string | null
}

export interface AotManifest extends AotIdentity {
  built: string
  /** The Fastify line the application was built on (absent in builds made before builds recorded it: 4). */
  fastifyLine?: FastifyLine
  buildId: string
  moduleBytes: number
  /** key -> index in the module's validator / serializer lists */
  validators: Record<string, number>
  serializers: Record<string, number>
  /** keys of schemas the build could not store: compiled at start, without a warning */
  atStart: string[]
  /** keys of the shared-schema sets (with Ajv options) Ajv accepted at build time */
  sharedSets: string[]
}

const IDENTITY_FIELDS = ['format', 'trellis', 'node', 'ajv', 'ajvFormats', 'generator'] as const

/** What differs between the build's identity and this process's (`node 20.1.0 (here 22.3.0)`), or [] when nothing. */
export function identityDifferences (built: Partial<AotIdentity>, here: AotIdentity): string[] {
  const out: string[] = []
  for (const field of IDENTITY_FIELDS) {
    if (built[field] !== here[field]) {
      const name = field === 'generator' ? 'serializer generator' : field === 'format' ? 'build format' : field
      const show = (v: unknown): string => field === 'generator' && typeof v === 'string' ? v.slice(0, 12) : String(v)
      out.push(`${name} ${show(built[field])} (here ${show(here[field])})`)
    }
  }
  return out
}

class NotStorable extends Error {}

function keyText (key: string): string {
  // `{ "__proto__": x }` would set the prototype: a computed key defines a property
  return key === '__proto__' ? '["__proto__"]' : JSON.stringify(key)
}

/** JavaScript text that evaluates to a copy of `value` (a serializer constant); throws NotStorable for functions and class instances. */
function constExpr (value: unknown): string {
  if (value === undefined) return 'undefined'
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value)
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value) // NaN and Infinity are globals
  if (typeof value !== 'object') throw new NotStorable() // functions (anyOf/oneOf matchers), symbols, bigints
  if (Array.isArray(value)) return '[' + Array.from(value, constExpr).join(',') + ']'
  const proto = Object.getPrototypeOf(value)
  if (value instanceof Set && proto === Set.prototype) return 'new Set([' + Array.from(value, constExpr).join(',') + '])'
  if (value instanceof RegExp && proto === RegExp.prototype) return `new RegExp(${JSON.stringify(value.source)}, ${JSON.stringify(value.flags)})`
  if (proto !== Object.prototype && proto !== null) throw new NotStorable()
  const body = '{' + Object.keys(value).map((k) => keyText(k) + ':' + constExpr((value as Record<string, unknown>)[k])).join(',') + '}'
  return proto === null ? `Object.assign(Object.create(null), ${body})` : body
}

/** The text of a serializer's constants, or undefined when one cannot be written as JavaScript. */
export function constsText (consts: readonly unknown[]): string | undefined {
  try {
    return '[' + consts.map(constExpr).join(',') + ']'
  } catch (err) {
    if (err instanceof NotStorable) return undefined
    throw err
  }
}

/** What wraps a serializer's source in compiled.js (its `source` is read back from the function's text). */
export const SERIALIZER_OPEN = 'function ($rt, $c) {\n'
export const SERIALIZER_CLOSE = '\n}'

/**
 * compiled.js: one script whose value is a function of the runtime `require`; it returns the lists
 * `v` (validator wrappers, called with a CommonJS `module`), `s` (serializer factories, called with
 * the runtime and constants) and `c` (functions returning each serializer's constants).
 */
export function moduleText (buildId: string, validators: readonly string[], serializers: readonly RecordedSerializer[]): string {
  const parts = [
    `// trellis build ${buildId}: ${validators.length} validators, ${serializers.length} serializers. Generated: do not edit.\n`,
    '(function (require) {\n\'use strict\'\nconst v = [\n'
  ]
  for (const code of validators) parts.push('function (module, exports) {\n', code, '\n},\n')
  parts.push('];\nconst s = [\n')
  for (const { source } of serializers) parts.push(SERIALIZER_OPEN, source, SERIALIZER_CLOSE, ',\n')
  parts.push('];\nconst c = [\n')
  for (const { constsText } of serializers) parts.push('function () { return ', constsText, ' },\n')
  parts.push('];\nreturn { v, s, c }\n})\n')
  return parts.join('')
}

/** The lists compiled.js returns. */
export interface ModuleLists {
  v: Array<(module: { exports: unknown }, exports: unknown) => void>
  s: Array<(rt: unknown, consts: unknown[]) => (payload: unknown) => string>
  c: Array<() => unknown[]>
}
