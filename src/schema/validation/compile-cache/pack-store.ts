/**
 * One cache directory as this process sees it: the packs it read (an index key -> locations), the
 * entries compiled since the last flush, and the keys it used. docs/schema-cache.md, "Storage".
 *
 * - The directory is read on the first lookup of a batch (a boot's compile phase, or one task):
 *   packs not seen before are read whole and their index verified; packs that disappeared are
 *   forgotten. Each entry is verified (bounds, hash over kind + key + content) when it is read.
 * - New entries are buffered and written at the end of the batch as ONE pack (temporary file in the
 *   directory + rename, mode 0600). A crash before that loses them; a reader never sees half a pack.
 * - Compaction, at a flush, when the directory would hold more than MAX_PACKS packs or holds many
 *   droppable entries (copies of a key already kept, or entries this process did not use that were
 *   written or last kept more than KEEP_UNUSED_MS ago): one pack with the entries this process
 *   used (stamped now) and the recent unused ones, then the packs it read are removed. Another
 *   worker may still be reading one of them: a pack that is gone is a miss, never an error.
 * - Leftovers are removed at a flush: files of the per-entry format 1 (`<key>.js`, `<key>.json`),
 *   packs of this format that fail their checks, and (at a compaction) temporary files older than an hour.
 * Packs of another format (another trellis version's) are neither read nor removed.
 *
 * Pack bytes are dropped at the end of each batch (a later lookup reads the pack again and checks it
 * is still the one indexed). Every I/O error is a miss: the cache never makes a boot fail.
 */
import { randomBytes } from 'node:crypto'
import { closeSync, openSync, readFileSync, readdirSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import { PACK_NAME_PATTERN, planPack, parsePack, readVerified, sameHeader, type EntryKind, type EntryLocation, type NewEntry, type ParsedPack } from './pack-format'
import { flushAtEndOfTask } from './write-batch'

/** A flush compacts when the directory would otherwise hold more packs than this. */
export const MAX_PACKS = 8
/** An entry this process did not use is kept this long after it was written (or last kept as used). */
export const KEEP_UNUSED_MS = 7 * 24 * 3600 * 1000
/** ... and dropped by a compaction once more than this many (and over a third of the entries) are droppable. */
const MIN_DROPPABLE = 64
const STALE_TEMP_MS = 3_600_000
const LEGACY_ENTRY = /^[0-9a-f]{64}\.(?:js|json)$/

interface Pack { readonly name: string, readonly parsed: ParsedPack, bytes: Buffer | undefined }
interface Located { readonly pack: Pack, readonly entry: EntryLocation }

const WRITE_BATCH = 1 << 20

function writeAll (fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length;) {
    const written = writeSync(fd, bytes, at, bytes.length - at)
    if (written <= 0) throw new Error('short write')
    at += written
  }
}

class PackDirectory {
  private readonly packs = new Map<string, Pack>()
  private readonly index = new Map<string, Located[]>()
  /** Keys this process read or wrote, in first-use order (the order a compacted pack keeps). */
  private readonly used = new Set<string>()
  private readonly pending = new Map<string, NewEntry>()
  private leftovers: string[] = []
  private temps: string[] = []
  private open = false
  private tmpCount = 0
  private tmpTag: string | undefined

  constructor (readonly dir: string) {}

  read (key: string, kind: EntryKind): string | undefined {
    this.begin()
    const buffered = this.pending.get(key)
    if (buffered !== undefined) return buffered.kind === kind ? buffered.content : undefined
    const content = this.storedCopy(key, kind)?.content
    if (content !== undefined) this.used.add(key)
    return content
  }

  write (key: string, kind: EntryKind, content: string): void {
    this.begin()
    this.pending.set(key, { key, kind, content, time: Date.now() })
    this.used.add(key)
  }

  /** The first verified copy of `key` in the packs read (of `kind`, when given). */
  private storedCopy (key: string, kind?: EntryKind): { kind: EntryKind, content: string } | undefined {
    const located = this.index.get(key)
    if (located === undefined) return undefined
    for (const { pack, entry } of located.slice()) {
      if (kind !== undefined && entry.kind !== kind) continue
      const bytes = this.bytesOf(pack)
      const content = bytes === undefined ? undefined : readVerified(bytes, entry)
      if (content !== undefined) return { kind: entry.kind, content }
    }
    return undefined
  }

  /** Starts a batch: reads the directory, and asks for a flush when the batch ends. */
  private begin (): void {
    if (this.open) return
    this.open = true
    this.scan()
    flushAtEndOfTask(() => this.flush())
  }

  private scan (): void {
    let names: string[]
    try { names = readdirSync(this.dir) } catch { names = [] }
    const present = new Set<string>()
    this.leftovers = []
    this.temps = []
    for (const name of names) {
      if (PACK_NAME_PATTERN.test(name)) {
        present.add(name)
        if (!this.packs.has(name)) this.load(name)
      } else if (LEGACY_ENTRY.test(name)) this.leftovers.push(name)
      else if (name.endsWith('.tmp')) this.temps.push(name)
    }
    for (const pack of [...this.packs.values()]) if (!present.has(pack.name)) this.forget(pack)
  }

  private load (name: string): void {
    let bytes: Buffer
    try { bytes = readFileSync(join(this.dir, name)) } catch { return } // gone since readdir: a miss
    const parsed = parsePack(bytes)
    if (parsed.status === 'corrupt') this.leftovers.push(name)
    if (parsed.status === 'ok') this.add({ name, parsed: parsed.pack, bytes })
  }

  private add (pack: Pack): void {
    this.packs.set(pack.name, pack)
    for (const entry of pack.parsed.entries) {
      const located = this.index.get(entry.key)
      if (located === undefined) { this.index.set(entry.key, [{ pack, entry }]); continue }
      // newest copy first: an entry written again (after a copy failed to load) supersedes the old one
      let at = located.length
      while (at > 0 && located[at - 1].entry.time < entry.time) at--
      located.splice(at, 0, { pack, entry })
    }
  }

  private forget (pack: Pack): void {
    if (this.packs.get(pack.name) !== pack) return
    this.packs.delete(pack.name)
    for (const entry of pack.parsed.entries) {
      const located = this.index.get(entry.key)
      if (located === undefined) continue
      const rest = located.filter((l) => l.pack !== pack)
      if (rest.length === 0) this.index.delete(entry.key)
      else this.index.set(entry.key, rest)
    }
  }

  /** A pack's bytes, read again if they were dropped; a pack gone or replaced since it was indexed is forgotten. */
  private bytesOf (pack: Pack): Buffer | undefined {
    if (pack.bytes !== undefined) return pack.bytes
    let bytes: Buffer | undefined
    try { bytes = readFileSync(join(this.dir, pack.name)) } catch { bytes = undefined }
    if (bytes === undefined || !sameHeader(bytes, pack.parsed)) {
      this.forget(pack) // the next batch's scan reads whatever is there now
      return undefined
    }
    pack.bytes = bytes
    return bytes
  }

  /** Ends the batch: writes the new entries as one pack (or compacts), removes leftovers, drops pack bytes. */
  flush (): void {
    if (!this.open) return
    this.open = false
    try {
      if (this.shouldCompact()) this.compact()
      else if (this.pending.size > 0) this.writePack([...this.pending.values()])
      // (a corrupt pack's name may just have been written again, whole: that one stays)
      for (const name of this.leftovers) if (!this.packs.has(name)) this.remove(name)
      this.leftovers = []
    } finally {
      this.pending.clear()
      for (const pack of this.packs.values()) pack.bytes = undefined
    }
  }

  /** Whether an entry held in the packs read would be dropped by a compaction now. */
  private droppable (entry: EntryLocation, first: boolean, now: number): boolean {
    if (!first || this.pending.has(entry.key)) return true // a second copy of a key
    return !this.used.has(entry.key) && now - entry.time > KEEP_UNUSED_MS
  }

  private shouldCompact (): boolean {
    if (this.packs.size === 0) return false
    if (this.packs.size + (this.pending.size > 0 ? 1 : 0) > MAX_PACKS) return true
    const now = Date.now()
    const seen = new Set<string>()
    let drop = 0
    let keep = 0
    for (const pack of this.packs.values()) {
      for (const entry of pack.parsed.entries) {
        const first = !seen.has(entry.key)
        seen.add(entry.key)
        if (this.droppable(entry, first, now)) drop++
        else keep++
      }
    }
    return drop > MIN_DROPPABLE && drop * 2 > keep
  }

  /** One pack with what this process used and the recent unused entries; then the packs read are removed. */
  private compact (): void {
    const now = Date.now()
    const out: NewEntry[] = []
    const kept = new Set<string>()
    for (const key of this.used) {
      const buffered = this.pending.get(key)
      const entry = buffered ?? this.storedEntry(key, now)
      if (entry !== undefined) { out.push(entry); kept.add(key) }
    }
    for (const pack of [...this.packs.values()]) {
      for (const entry of pack.parsed.entries) {
        if (kept.has(entry.key) || this.droppable(entry, true, now)) continue
        const bytes = this.bytesOf(pack)
        const content = bytes === undefined ? undefined : readVerified(bytes, entry)
        if (content === undefined) continue
        out.push({ key: entry.key, kind: entry.kind, content, time: entry.time })
        kept.add(entry.key)
      }
    }
    const read = [...this.packs.values()]
    const written = out.length === 0 ? null : this.writePack(out)
    if (written === undefined) return // could not write: leave everything as it is
    for (const pack of read) {
      if (pack.name === written) continue
      this.remove(pack.name)
      this.forget(pack)
    }
    this.removeStaleTemps()
  }

  private storedEntry (key: string, now: number): NewEntry | undefined {
    const copy = this.storedCopy(key)
    return copy === undefined ? undefined : { key, kind: copy.kind, content: copy.content, time: now }
  }

  /** Writes `entries` as one pack (temporary file + rename); its name, or undefined when it failed. */
  private writePack (entries: NewEntry[]): string | undefined {
    const { name, head, pack } = planPack(entries)
    this.tmpTag ??= `${process.pid}.${randomBytes(6).toString('hex')}`
    const tmp = join(this.dir, `${name}.${this.tmpTag}.${++this.tmpCount}.tmp`)
    try {
      const fd = openSync(tmp, 'wx', 0o600)
      try {
        writeAll(fd, head)
        // the contents in batches of about 1 MB: few writes, and no buffer of the whole pack
        let batch: string[] = []
        let size = 0
        for (const entry of entries) {
          batch.push(entry.content)
          size += entry.content.length
          if (size >= WRITE_BATCH) { writeAll(fd, Buffer.from(batch.join(''), 'utf8')); batch = []; size = 0 }
        }
        if (batch.length > 0) writeAll(fd, Buffer.from(batch.join(''), 'utf8'))
      } finally {
        closeSync(fd)
      }
      renameSync(tmp, join(this.dir, name))
    } catch {
      this.remove(tmp)
      return undefined
    }
    const previous = this.packs.get(name)
    if (previous !== undefined) this.forget(previous)
    this.add({ name, parsed: pack, bytes: undefined })
    return name
  }

  private removeStaleTemps (): void {
    const before = Date.now() - STALE_TEMP_MS
    for (const name of this.temps) {
      try {
        if (statSync(join(this.dir, name)).mtimeMs < before) unlinkSync(join(this.dir, name))
      } catch {}
    }
    this.temps = []
  }

  private remove (name: string): void {
    try { unlinkSync(join(this.dir, name)) } catch {}
  }
}

const directories = new Map<string, PackDirectory>()

function directory (dir: string): PackDirectory {
  let found = directories.get(dir)
  if (found === undefined) {
    found = new PackDirectory(dir)
    directories.set(dir, found)
  }
  return found
}

/** The verified content stored for `key` (of `kind`) in `dir`, or undefined (a miss). */
export function readPackedEntry (dir: string, key: string, kind: EntryKind): string | undefined {
  return directory(dir).read(key, kind)
}

/** Buffers `content` for `key`; written with the rest of the batch. */
export function writePackedEntry (dir: string, key: string, kind: EntryKind, content: string): void {
  directory(dir).write(key, kind, content)
}

/** Test helper: forget what this process read from every directory (as a new process would). */
export function forgetPackDirectories (): void {
  for (const d of directories.values()) d.flush()
  directories.clear()
}
