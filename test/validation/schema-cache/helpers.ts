/** Shared pieces of the schema-cache tests: a temp directory, its files and packs, a forged pack. */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { clearValidatorCompilerPool } from '../../../src/schema/validation/index'
import { forgetPackDirectories } from '../../../src/schema/validation/compile-cache/pack-store'

/**
 * Forget what this process compiled and read from cache directories: the next server boots as a
 * restarted process would (its default compilers and the directory's index are built anew).
 */
export function restart (): void {
  forgetPackDirectories()
  clearValidatorCompilerPool()
}

export function tempCacheDir (t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-schema-cache-'))
  t.after(() => rmSync(dir, { recursive: true, force: true }))
  restart()
  return dir
}

/** The files (name -> inode:mtime) of a cache directory: unchanged means nothing was written. */
export function entries (dir: string): Map<string, string> {
  const out = new Map<string, string>()
  for (const name of readdirSync(dir).sort()) {
    const st = statSync(join(dir, name))
    out.set(name, `${st.ino}:${st.mtimeMs}`)
  }
  return out
}

export function packFiles (dir: string): string[] {
  return readdirSync(dir).filter((n) => n.endsWith('.pack')).sort()
}

export type Kind = 'validator' | 'serializer' | 'marker'
export interface StoredEntry { pack: string, key: string, kind: Kind, time: number, content: string, verified: boolean }

const sha = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex')

/**
 * Every entry of every pack in `dir`, read by this test's own reader of the documented format
 * (docs/schema-cache.md, "Storage"): `verified` when the entry's bytes match its hash.
 * Packs whose header or index do not check out are left out.
 */
export function storedEntries (dir: string): StoredEntry[] {
  const out: StoredEntry[] = []
  for (const pack of packFiles(dir)) {
    const bytes = readFileSync(join(dir, pack))
    const eol = bytes.indexOf(10)
    const m = /^trellis-schema-pack 2 (\d+) (\d+) ([0-9a-f]{64})$/.exec(bytes.subarray(0, eol).toString('latin1'))
    if (m === null) continue
    const index = bytes.subarray(eol + 1, eol + 1 + Number(m[1]))
    const dataStart = eol + 2 + Number(m[1])
    if (sha(index) !== m[3] || bytes.length !== dataStart + Number(m[2])) continue
    for (const [key, kind, offset, length, hash, time] of JSON.parse(index.toString()) as Array<[string, Kind, number, number, string, number]>) {
      const content = bytes.subarray(dataStart + offset, dataStart + offset + length)
      out.push({ pack, key, kind, time, content: content.toString(), verified: sha(Buffer.concat([Buffer.from(`${kind} ${key}\n`), content])) === hash })
    }
  }
  return out
}

/** The pack files whose header, length or index hash do not check out. */
export function unreadablePacks (dir: string): string[] {
  const readable = new Set(storedEntries(dir).map((e) => e.pack))
  return packFiles(dir).filter((p) => !readable.has(p))
}

/** The newest verified content stored for `key` (what a restarted server loads), or undefined. */
export function storedContent (dir: string, key: string): string | undefined {
  const found = storedEntries(dir).filter((e) => e.key === key && e.verified).sort((a, b) => b.time - a.time)
  return found[0]?.content
}

/** The keys of the validator entries stored (verified). */
export function validatorKeys (dir: string): string[] {
  return [...new Set(storedEntries(dir).filter((e) => e.kind === 'validator' && e.verified).map((e) => e.key))]
}

export interface ForgedEntry {
  key: string
  kind?: Kind
  content: string
  time?: number
  /** The key the hash is computed for (default: `key`): another key's gives a foreign entry. */
  hashKey?: string
  /** A hash to write instead of the right one. */
  hash?: string
}

/**
 * Writes a pack by hand in the documented format, hashes and all: what a party that can write the
 * directory could do (or a writer with a bug, via `hashKey` / `hash`). Returns its path.
 */
export function forgePack (dir: string, forged: ForgedEntry[], name?: string, format = 2): string {
  const rows: unknown[] = []
  const contents: Buffer[] = []
  let offset = 0
  for (const e of forged) {
    const kind = e.kind ?? 'validator'
    const content = Buffer.from(e.content)
    const hash = e.hash ?? sha(Buffer.concat([Buffer.from(`${kind} ${e.hashKey ?? e.key}\n`), content]))
    rows.push([e.key, kind, offset, content.length, hash, e.time ?? Date.now()])
    contents.push(content)
    offset += content.length
  }
  const index = Buffer.from(JSON.stringify(rows))
  const file = join(dir, name ?? sha(index) + '.pack')
  writeFileSync(file, Buffer.concat([Buffer.from(`trellis-schema-pack ${format} ${index.length} ${offset} ${sha(index)}\n`), index, Buffer.from('\n'), ...contents]), { mode: 0o600 })
  return file
}
