/**
 * A server option naming a directory, as `schemaCache` and `aot` take it: `{ dir }` turns the
 * feature on there, `false` (or null) keeps it off; when absent, an environment variable (non-empty)
 * names the directory. The directory is resolved against the working directory once, at the
 * factory call.
 */
import { resolve } from 'node:path'

export function resolveDirOption (name: string, envName: string, value: unknown, invalid: (message: string) => never, env: NodeJS.ProcessEnv): { dir: string } | undefined {
  if (value === false || value === null) return undefined
  if (value === undefined) {
    const dir = env[envName]
    return typeof dir === 'string' && dir !== '' ? { dir: resolve(dir) } : undefined
  }
  const dir = typeof value === 'object' ? (value as { dir?: unknown }).dir : undefined
  if (typeof dir !== 'string' || dir === '') invalid(`"${name}" must be { dir: string } or false`)
  return { dir: resolve(dir) }
}
