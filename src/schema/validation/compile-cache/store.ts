/**
 * The cache directory: one file per key, `<key>.js` (validators) or `<key>.json` (serializer sources,
 * src/schema/serialization/source-cache.ts), holding a header line and the generated code.
 *
 *   // trellis-schema-cache 1 <key> <sha256 of the code>
 *   <code>
 *
 * Reading verifies the header's format, that it names the key asked for (a file copied or renamed
 * from another key is foreign) and the code's hash (a truncated or altered file); anything else is
 * a miss, and the next write replaces the file. Writes go to a temporary file in the same directory
 * and are renamed over the entry, so a reader (another worker sharing the directory) sees either no
 * file or a whole one. All I/O errors are misses: the cache never makes a boot fail.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const MAGIC = '// trellis-schema-cache 1 '
const KEY_PATTERN = /^[0-9a-f]{64}$/

export function sha256 (text: string): string {
  return createHash('sha256').update(text).digest('hex')
}

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

/** The verified code stored for `key`, or undefined (absent, unreadable, corrupt, foreign). */
export function readEntry (dir: string, key: string, suffix = '.js'): string | undefined {
  if (!KEY_PATTERN.test(key)) return undefined
  let text: string
  try { text = readFileSync(join(dir, key + suffix), 'utf8') } catch { return undefined }
  if (!text.startsWith(MAGIC)) return undefined
  const eol = text.indexOf('\n')
  if (eol < 0) return undefined
  const [fileKey, hash] = text.slice(MAGIC.length, eol).split(' ')
  if (fileKey !== key) return undefined
  const code = text.slice(eol + 1)
  if (hash !== sha256(code)) return undefined
  return code
}

// temporary names unique per process and write: pid + a random per-process tag + a counter
let tmpTag: string | undefined
let tmpCount = 0

/** Stores `code` for `key` atomically (temporary file + rename). Failures are ignored. */
export function writeEntry (dir: string, key: string, code: string, suffix = '.js'): void {
  if (!KEY_PATTERN.test(key)) return
  tmpTag ??= `${process.pid}.${randomBytes(6).toString('hex')}`
  const tmp = join(dir, `${key}.${tmpTag}.${++tmpCount}.tmp`)
  try {
    writeFileSync(tmp, MAGIC + key + ' ' + sha256(code) + '\n' + code, { flag: 'wx', mode: 0o600 })
    renameSync(tmp, join(dir, key + suffix))
  } catch {
    try { unlinkSync(tmp) } catch {}
  }
}

/** Test helper: forget which directories were checked. */
export function forgetCheckedDirs (): void {
  checked.clear()
}
