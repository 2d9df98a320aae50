/**
 * Code generated from strings, prepared at build time for a Worker. workerd refuses
 * `new Function` and `eval` at all times, and trellis and its router make functions from strings
 * while an application readies (find-my-way's matchers and parameter objects, the decorator field
 * writers; Ajv and the serializer generator when a schema is not in the build). The build runs the
 * application's ready() with the global `Function` recording each call; the Worker gets every
 * recorded function as source code of its bundle and, in place of the global `Function`, a stand-in
 * that returns the prepared function for the same arguments. Arguments the build never saw throw,
 * naming the runtime: something compiled only at request time (`request.compileValidationSchema`
 * with a new schema), which a Worker cannot do.
 *
 * The functions are module code, so strict mode: generated code that relied on sloppy mode would
 * fail to parse when the Worker is bundled (none of trellis', find-my-way's or Ajv's does).
 */
import { WORKERS } from '../base/worker-target'

type FunctionArgs = string[]

const keyOf = (args: readonly unknown[]): string => JSON.stringify(Array.from(args, String))

/** Runs `run` with every `Function(...)` / `new Function(...)` call recorded; the recorded arguments, distinct, in order. */
export async function recordCodeGeneration (run: () => Promise<void>): Promise<FunctionArgs[]> {
  const Real = globalThis.Function
  const seen = new Map<string, FunctionArgs>()
  const note = (args: unknown[]): void => {
    const key = keyOf(args)
    if (!seen.has(key)) seen.set(key, Array.from(args, String))
  }
  const stand = new Proxy(Real, {
    construct (target, args) { note(args); return Reflect.construct(target, args) },
    apply (target, self, args) { note(args); return Reflect.apply(target, self, args) }
  })
  globalThis.Function = stand
  try {
    await run()
  } finally {
    globalThis.Function = Real
  }
  return [...seen.values()]
}

/** The source of a function as `new Function(...args)` makes it (V8's form: `function anonymous(a,b\n) {\nbody\n}`). */
function functionSource (args: FunctionArgs): string {
  const params = args.slice(0, -1).join(',')
  const body = args.length === 0 ? '' : args[args.length - 1]
  return `function anonymous(${params}\n) {\n${body}\n}`
}

/**
 * The module the Worker's bundle injects as `Function`: a table from the arguments the build saw to
 * factories of their functions (a fresh function each call, as `new Function` gives), behind a
 * Proxy of the real constructor (so `instanceof Function` and `Function.prototype` are unchanged).
 */
export function codeGenerationModule (generated: readonly FunctionArgs[]): string {
  const entries = generated.map((args) => `  [${JSON.stringify(keyOf(args))}, () => ${functionSource(args)}]`)
  return `// trellis build --target worker: the ${generated.length} functions the application made from strings while it readied. Generated: do not edit.
const table = new Map([
${entries.join(',\n')}
])
const RealFunction = globalThis.Function
function prepared (args) {
  const make = table.get(JSON.stringify(Array.from(args, String)))
  if (make === undefined) {
    const body = String(args.length === 0 ? '' : args[args.length - 1])
    throw new EvalError(${JSON.stringify(`code generation from a string at run time is not available on ${WORKERS}: trellis build did not see this function while the application readied (`)} + JSON.stringify(body.slice(0, 120)) + '…)')
  }
  return make()
}
const TrellisFunction = new Proxy(RealFunction, {
  construct (target, args) { return prepared(args) },
  apply (target, self, args) { return prepared(args) }
})
export { TrellisFunction as Function }
`
}
