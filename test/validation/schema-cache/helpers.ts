/** Shared pieces of the schema-cache tests: a temp directory, its entries, a forged entry. */
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clearValidatorCompilerPool } from '../../../src/schema/validation/index'

export function tempCacheDir (t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-schema-cache-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  // the pool is process-wide: a second server with the same configuration must build a new compiler
  clearValidatorCompilerPool()
  return dir
}

/** The entries (name -> inode:mtime) of a cache directory: unchanged means nothing was written. */
export function entries (dir: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const name of readdirSync(dir).sort()) {
    const st = statSync(join(dir, name))
    out.set(name, `${st.ino}:${st.mtimeMs}`)
  }
  return out
}

/** Writes an entry the way the cache does, hash and all: what a party that can write the directory could do. */
export function writeVerifiedEntry (dir: string, key: string, code: string, suffix = '.js'): void {
  const hash = createHash('sha256').update(code).digest('hex')
  writeFileSync(join(dir, key + suffix), `// trellis-schema-cache 1 ${key} ${hash}\n${code}`)
}

/** The key of every validator entry (the shared-set marker has an empty body). */
export function validatorKeys (dir: string, read: (name: string) => string): string[] {
  return readdirSync(dir).filter((n) => n.endsWith('.js') && read(n).split('\n').slice(1).join('\n') !== '').map((n) => n.slice(0, -3))
}
