/**
 * The JavaScript runtime this process runs on, as a build records it: Bun and Deno also report a
 * `process.versions.node` (the Node version they emulate), so the Node version alone does not tell
 * a build made under Node.js from one made under them.
 */
export type RuntimeId = 'node' | 'bun' | 'deno'

const NAMES: Record<RuntimeId, string> = { node: 'Node.js', bun: 'Bun', deno: 'Deno' }

/** `node`, `bun` or `deno`. */
export function runtimeId (versions: NodeJS.ProcessVersions = process.versions): RuntimeId {
  const v = versions as NodeJS.ProcessVersions & { bun?: string, deno?: string }
  return typeof v.bun === 'string' ? 'bun' : typeof v.deno === 'string' ? 'deno' : 'node'
}

/** The runtime's name for messages (`Node.js`, `Bun`, `Deno`); an unknown id is shown as given. */
export function runtimeName (id: unknown): string {
  return typeof id === 'string' && Object.hasOwn(NAMES, id) ? NAMES[id as RuntimeId] : String(id)
}

/**
 * Why a build recorded under `built` (missing: a build from before the runtime was recorded, made
 * under Node.js) is not for this process, or undefined when it is.
 */
export function runtimeMismatch (built: unknown, here: RuntimeId = runtimeId()): string | undefined {
  const from = built === undefined ? 'node' : built
  if (from === here) return undefined
  return `it was built under ${runtimeName(from)} and this process runs ${runtimeName(here)}; rerun trellis build under ${runtimeName(here)}`
}
