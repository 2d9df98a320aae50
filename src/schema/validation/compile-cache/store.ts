/**
 * The cache directory: its checks (created 0700, refused when owned by another user or writable by
 * group or others), and entries by key. Entries are stored in pack files, many entries per file,
 * one file per batch of compilations (pack-format.ts, pack-store.ts; docs/schema-cache.md).
 *
 * Reading verifies the entry's key, kind and content hash; anything else is a miss, compiled again
 * and written with the next batch. All I/O errors are misses: the cache never makes a boot fail.
 */
import { mkdirSync, statSync } from 'node:fs'
import { KEY_PATTERN, type EntryKind } from './pack-format'
import { readPackedEntry, writePackedEntry } from './pack-store'

export type { EntryKind } from './pack-format'

export { sha256 } from './hash'

/** Directories already checked in this process: the usable ones, and the reason the others are not. */
const checked = new Map<string, string | null>()

/**
 * Whether `dir` may hold code this process will run: created (mode 0700) if missing; refused when
 * it is not a directory, or (POSIX) is owned by another user or writable by group or others.
 * Returns null when usable, else the reason (the caller then compiles without the cache).
 */
export function checkCacheDir (dir: string): string | null {
  const known = checked.get(dir)
  if (known !== undefined) return known
  let reason: string | null = null
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const st = statSync(dir)
    if (!st.isDirectory()) reason = 'not a directory'
    else if (process.platform !== 'win32') {
      const uid = typeof process.getuid === 'function' ? process.getuid() : undefined
      if (uid !== undefined && st.uid !== uid) reason = `owned by uid ${st.uid}, not by this process (uid ${uid})`
      else if ((st.mode & 0o022) !== 0) reason = `writable by group or others (mode ${(st.mode & 0o777).toString(8)})`
    }
  } catch (error) {
    reason = error instanceof Error ? error.message : String(error)
  }
  checked.set(dir, reason)
  return reason
}

/** The verified content stored for `key`, or undefined (absent, unreadable, corrupt, foreign). */
export function readEntry (dir: string, key: string, kind: EntryKind): string | undefined {
  if (!KEY_PATTERN.test(key)) return undefined
  return readPackedEntry(dir, key, kind)
}

/** Stores `content` for `key`: buffered, and written with the rest of its batch as one pack. */
export function writeEntry (dir: string, key: string, kind: EntryKind, content: string): void {
  if (!KEY_PATTERN.test(key)) return
  writePackedEntry(dir, key, kind, content)
}
