/**
 * Node's own compile cache (`module.enableCompileCache()`, Node 22.1 and later): V8's code of every
 * CommonJS and ES module loaded from disk, kept on disk across starts (in $NODE_COMPILE_CACHE, else
 * Node's folder under the temporary directory). `trellis start` turns it on before it loads anything
 * else (dist/bin/trellis.js calls `enableForStart`), and so does a process that starts from a
 * `trellis build` (TRELLIS_AOT_DIR, ./load-pack.ts): the module pack holds trellis' modules and the
 * packages it loads at start, this cache the rest (Ajv, pino, the application's own modules).
 *
 * `trellis start` also writes the cache once it listens (`flushCompileCache`), so that a server that
 * is killed, not closed, still leaves it for the next start.
 *
 * Off: `trellis start --compile-cache=false` or TRELLIS_COMPILE_CACHE=false, or Node's own
 * NODE_DISABLE_COMPILE_CACHE=1. Nothing happens on a Node without it (20), nor under Bun or Deno.
 * No import of trellis' own code: this runs before any of it.
 */
import Module = require('node:module')

type Enable = (dir?: string) => { status: number, message?: string, directory?: string } | undefined

const OFF = ['0', 'false', 'no', 'off']

/** Whether the environment turns the cache off (TRELLIS_COMPILE_CACHE=false). */
function offByEnv (env: NodeJS.ProcessEnv): boolean {
  const v = env.TRELLIS_COMPILE_CACHE
  return v !== undefined && OFF.includes(v.trim().toLowerCase())
}

/**
 * Turns Node's compile cache on unless the environment turns it off; returns the folder it uses,
 * or why it is not on (`unavailable`: this Node has none; `off`; Node's own message otherwise).
 */
export function enableCompileCache (env: NodeJS.ProcessEnv = process.env): { on: true, directory: string } | { on: false, why: string } {
  const enable = (Module as unknown as { enableCompileCache?: Enable }).enableCompileCache
  if (typeof enable !== 'function') return { on: false, why: 'unavailable' }
  if (offByEnv(env)) return { on: false, why: 'off' }
  const result = enable()
  const statuses = (Module as unknown as { constants?: { compileCacheStatus?: Record<string, number> } }).constants?.compileCacheStatus
  if (result !== undefined && statuses !== undefined && (result.status === statuses.ENABLED || result.status === statuses.ALREADY_ENABLED)) {
    return { on: true, directory: result.directory ?? '' }
  }
  return { on: false, why: result?.message ?? (statuses !== undefined && result?.status === statuses.DISABLED ? 'NODE_DISABLE_COMPILE_CACHE is set' : 'not enabled') }
}

/**
 * Writes what the cache holds now to disk (Node 22.10+; before, Node writes it when the process
 * exits normally, so a process that is killed leaves nothing). `trellis start` calls it once it
 * listens: the modules a start loads are compiled by then.
 */
export function flushCompileCache (): void {
  const flush = (Module as unknown as { flushCompileCache?: () => void }).flushCompileCache
  if (typeof flush === 'function') flush()
}

/**
 * `trellis start` (its executable, before anything else is loaded): the cache is on unless
 * `--compile-cache=false` (or 0, no, off) is among the start options, or the environment turns it
 * off. The start options are parsed (and a bad value reported) later, by ../cli/args.ts.
 */
export function enableForStart (argv: readonly string[], env: NodeJS.ProcessEnv = process.env): ReturnType<typeof enableCompileCache> {
  if (argv[0] !== 'start') return { on: false, why: 'not trellis start' }
  for (const arg of argv) {
    if (arg === '--') break
    if (arg.startsWith('--compile-cache=') && OFF.includes(arg.slice('--compile-cache='.length).trim().toLowerCase())) return { on: false, why: 'off' }
  }
  return enableCompileCache(env)
}
