/**
 * The pack file of the schema cache (cache format 2): many entries in one file, written once.
 *
 *   trellis-schema-pack 2 <index bytes> <data bytes> <sha256 of the index>\n
 *   <index: JSON, [[key, kind, offset, length, sha256, time], ...]>\n
 *   <data: the entries' contents, back to back>
 *
 * `offset` / `length` are bytes within the data; `time` (ms since the epoch) is when the entry was
 * written or last kept as used by a compaction (pack-store.ts prefers the newest copy of a key and
 * drops entries nobody used for a while). An entry's hash covers its kind, its key and its content, so an entry listed under another
 * key or kind does not verify (a foreign entry is a miss). The file's length must be exactly what
 * the header says (a truncated or extended pack is ignored whole), and the index must match its
 * hash. The file name is a hash of the entries' keys, kinds and content hashes, `<hash>.pack`:
 * equal names mean equal entries, so workers that write the same pack at once rename onto one file.
 *
 * Pure functions: no I/O here (pack-store.ts reads and writes the files).
 */
import { createHash } from 'node:crypto'

const PACK_FORMAT = 2
const PACK_MAGIC = 'trellis-schema-pack '
const HEADER = PACK_MAGIC + String(PACK_FORMAT) + ' '
/** Longest header line we accept (magic, format, two lengths, a hash). */
const MAX_HEADER = 160

export const KEY_PATTERN = /^[0-9a-f]{64}$/
export const PACK_NAME_PATTERN = /^[0-9a-f]{64}\.pack$/

/** What an entry holds: Ajv standalone code, a serializer source (JSON), or the shared-set marker (empty). */
export type EntryKind = 'validator' | 'serializer' | 'marker'
const KINDS: ReadonlySet<string> = new Set<EntryKind>(['validator', 'serializer', 'marker'])

/** Where one entry lies in its pack's bytes (`start` counted from the file's first byte). */
export interface EntryLocation { key: string, kind: EntryKind, start: number, length: number, hash: string, time: number }

export interface ParsedPack { indexHash: string, size: number, entries: EntryLocation[] }

/**
 * ok: a verified header and index; foreign: a pack of another format (another trellis version's:
 * left alone); corrupt: anything else under a pack's name, failing its checks (safe to remove).
 */
type PackParse = { status: 'ok', pack: ParsedPack } | { status: 'corrupt' | 'foreign' }

function entryHash (kind: EntryKind, key: string, content: Buffer | string): string {
  return createHash('sha256').update(kind + ' ' + key + '\n').update(content).digest('hex')
}

export interface NewEntry { key: string, kind: EntryKind, content: string, time: number }

/**
 * A pack holding `entries` (in that order): its file name, its head (header line, index and the
 * newline before the data; the data is the entries' contents, UTF-8, in order) and its parsed form.
 * The contents are not copied into one buffer: the writer streams them after the head.
 */
export function planPack (entries: readonly NewEntry[]): { name: string, head: Buffer, pack: ParsedPack } {
  const rows: Array<[string, EntryKind, number, number, string, number]> = []
  const identity = createHash('sha256')
  let offset = 0
  for (const { key, kind, content, time } of entries) {
    const length = Buffer.byteLength(content, 'utf8')
    const hash = entryHash(kind, key, content)
    rows.push([key, kind, offset, length, hash, time])
    identity.update(key + ' ' + kind + ' ' + hash + '\n')
    offset += length
  }
  const index = Buffer.from(JSON.stringify(rows), 'utf8')
  const indexHash = createHash('sha256').update(index).digest('hex')
  const head = Buffer.concat([Buffer.from(`${HEADER}${index.length} ${offset} ${indexHash}\n`, 'latin1'), index, Buffer.from('\n')])
  const located = rows.map(([key, kind, at, length, hash, time]) => ({ key, kind, start: head.length + at, length, hash, time }))
  return { name: identity.digest('hex') + '.pack', head, pack: { indexHash, size: head.length + offset, entries: located } }
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0

/** Reads and verifies a pack's header and index (not the entries: each is verified when read). */
export function parsePack (bytes: Buffer): PackParse {
  const eol = bytes.subarray(0, MAX_HEADER).indexOf(10)
  const line = bytes.subarray(0, eol < 0 ? Math.min(bytes.length, MAX_HEADER) : eol).toString('latin1')
  if (!line.startsWith(HEADER)) return { status: line.startsWith(PACK_MAGIC) ? 'foreign' : 'corrupt' }
  const match = /^(\d{1,12}) (\d{1,12}) ([0-9a-f]{64})$/.exec(line.slice(HEADER.length))
  if (eol < 0 || match === null) return { status: 'corrupt' }
  const indexLength = Number(match[1])
  const dataLength = Number(match[2])
  const indexHash = match[3]
  const indexStart = eol + 1
  const dataStart = indexStart + indexLength + 1
  if (bytes.length !== dataStart + dataLength || bytes[dataStart - 1] !== 10) return { status: 'corrupt' }
  const index = bytes.subarray(indexStart, indexStart + indexLength)
  if (createHash('sha256').update(index).digest('hex') !== indexHash) return { status: 'corrupt' }
  let rows: unknown
  try { rows = JSON.parse(index.toString('utf8')) } catch { return { status: 'corrupt' } }
  if (!Array.isArray(rows)) return { status: 'corrupt' }
  const entries: EntryLocation[] = []
  for (const row of rows as unknown[]) {
    if (!Array.isArray(row) || row.length !== 6) return { status: 'corrupt' }
    const [key, kind, offset, length, hash, time] = row as unknown[]
    if (typeof key !== 'string' || !KEY_PATTERN.test(key) || typeof kind !== 'string' || !KINDS.has(kind) ||
      !isCount(offset) || !isCount(length) || offset + length > dataLength ||
      typeof hash !== 'string' || !KEY_PATTERN.test(hash) || !isCount(time)) return { status: 'corrupt' }
    entries.push({ key, kind: kind as EntryKind, start: dataStart + offset, length, hash, time })
  }
  return { status: 'ok', pack: { indexHash, size: bytes.length, entries } }
}

/** The header of `bytes` still names this index and size (a pack re-read later is the one indexed). */
export function sameHeader (bytes: Buffer, pack: ParsedPack): boolean {
  if (bytes.length !== pack.size) return false
  const eol = bytes.subarray(0, MAX_HEADER).indexOf(10)
  return eol > 0 && bytes.subarray(0, eol).toString('latin1').endsWith(' ' + pack.indexHash)
}

/** The entry's content if its bytes match its hash, else undefined. */
export function readVerified (bytes: Buffer, entry: EntryLocation): string | undefined {
  const end = entry.start + entry.length
  if (end > bytes.length) return undefined
  const content = bytes.subarray(entry.start, end)
  if (entryHash(entry.kind, entry.key, content) !== entry.hash) return undefined
  return content.toString('utf8')
}
