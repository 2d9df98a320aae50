/**
 * Orchestration: schema -> generated source -> function (via `new Function`).
 * The generated module receives the runtime helpers (`$rt`) and the constants (`$c`) once;
 * the returned serializer allocates no closure per call.
 */
import { createRefResolver } from '../ref-resolver'
import { CodegenState } from './codegen-state'
import { genPart, genValue } from './generate-value'
import { NEEDS_ESCAPE } from './escape'
import { getRuntime, type Rounding } from './runtime'
import { checkSchema } from './schema-check'
import { PROJECT_ARRAYS, PROJECT_ARRAY_FIELDS } from './generate-projection'

export type SerializerFn = (payload: unknown) => string

export interface CompileOptions {
  sharedSchemas?: Record<string, unknown>
  /** integer rounding for non-integer numbers written to `type: 'integer'` (default `trunc`) */
  rounding?: Rounding
  /** print the generated source to stderr */
  debug?: boolean
  /** With projectArrays: also items with primitive-array properties (default: PROJECT_ARRAY_FIELDS). Same output either way. */
  projectArrayFields?: boolean
  /** Project arrays of flat objects and JSON.stringify them (default: PROJECT_ARRAYS, off); else bytes or concatenation. Same output either way. */
  projectArrays?: boolean
  /** Arrays of flat objects written as bytes into a reused buffer, decoded once (default on; an explicit projectArrays wins). Same output either way. */
  byteArrays?: boolean
  /** Straight-line object functions where they fit (default on); off only to compare against the general form. Same output either way. */
  straightObjects?: boolean
}

const PRELUDE = '\'use strict\'\n' +
  'const $str = $rt.str, $coerceStr = $rt.coerceStr, $strU = $rt.strU, $coerceStrU = $rt.coerceStrU, $num = $rt.num, $fnum = $rt.fnum, $int = $rt.int, ' +
  '$dateTime = $rt.dateTime, $date = $rt.date, $time = $rt.time, $any = $rt.any, $esc = $rt.esc, ' +
  '$intV = $rt.intV, $numV = $rt.numV, $strV = $rt.strV, $fallback = $rt.fallback, ' +
  '$take = $rt.take, $grow = $rt.grow, $done = $rt.done, $wtext = $rt.wtext, $wstr = $rt.wstr, $wint = $rt.wint, $wnum = $rt.wnum, $wdate = $rt.wdate, $pending = $rt.pending\n'

/** Generates the source of a serializer for `schema`; the source's body returns the `main` function. */
export function generateSource (schema: unknown, options: CompileOptions = {}): { source: string, consts: unknown[] } {
  checkSchema(schema)
  const shared = options.sharedSchemas ?? {}
  for (const name of Object.keys(shared)) checkSchema(shared[name], name)
  const { resolver, outer } = createRefResolver(shared).forRoot(schema)
  const ctx = new CodegenState(resolver, genPart)
  ctx.projectArrayFields = options.projectArrayFields ?? PROJECT_ARRAY_FIELDS
  ctx.straightObjects = options.straightObjects ?? true
  ctx.projectArrays = options.projectArrays ?? PROJECT_ARRAYS
  ctx.byteArrays = options.byteArrays ?? true
  const body = genValue(ctx, schema, outer, 'input', '#')
  const single = /^json \+= (f\d+)\(input\)\n$/.exec(body)
  let source = PRELUDE + ctx.functions.join('\n')
  source += single !== null
    ? `return ${single[1]}\n`
    : `function main (input) {\nlet json = ''\n${body}return json\n}\nreturn main\n`
  return { source, consts: ctx.consts }
}

/**
 * Generates the serializer's source now (this is where an invalid or unsupported schema throws, so
 * it fails at `ready()`), and turns the source into a function on the first call: parsing the
 * source with `new Function` is most of a serializer's compile time, and a route that never
 * answers with that status never pays it. The returned function forwards to the compiled one.
 */
export function serializerFromSchema (schema: unknown, options: CompileOptions = {}): SerializerFn & { source: string } {
  const { source, consts } = generateSource(schema, options)
  if (options.debug === true) process.stderr.write(`// trellis serializer\n${source}\n`)
  return serializerFromSource(source, consts, options)
}

/** The serializer of a generated `source` and its constants (from {@link generateSource}, or the schema cache). */
export function serializerFromSource (source: string, consts: unknown[], options: Pick<CompileOptions, 'rounding'> = {}): SerializerFn & { source: string } {
  // eslint-disable-next-line no-new-func
  return serializerFromFactory(() => new Function('$rt', '$c', source) as SerializerFactory, () => consts, options, () => source)
}

/** A generated source as a function: called with the runtime and the constants, it returns the serializer. */
export type SerializerFactory = (rt: unknown, consts: unknown[]) => SerializerFn

/**
 * The serializer made by `factory()` (a parsed source, or a function of `trellis build`'s module)
 * from the runtime and `consts()`, on its first call; the returned function forwards to it.
 */
export function serializerFromFactory (factory: () => SerializerFactory, consts: () => unknown[], options: Pick<CompileOptions, 'rounding'>, source: () => string): SerializerFn & { source: string } {
  const rt = { ...getRuntime(options.rounding), esc: NEEDS_ESCAPE }
  let compiled: SerializerFn | undefined
  const build = (): SerializerFn => {
    compiled = factory()(rt, consts())
    return compiled
  }
  const serialize = function serialize (payload: unknown): string {
    return (compiled ?? build())(payload)
  }
  Object.defineProperty(serialize, 'source', { get: source, enumerable: false })
  return serialize as SerializerFn & { source: string }
}
