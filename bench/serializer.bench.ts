/**
 * Serializer benchmark: trellis' compiled serializer vs fast-json-stringify 5 and 7 vs JSON.stringify.
 * Every call is counted with `Buffer.byteLength` of its result: that is what a server pays (a
 * concatenated string is a rope V8 flattens before it can be measured or written; JSON.stringify
 * returns a flat string), so leaving it out overstates a concatenating serializer.
 * Run: npm run bench:serializer   (node --import tsx bench/serializer.bench.ts)
 * Under Node 24: "$(node scripts/node-line.mjs 24)" --import tsx bench/serializer.bench.ts
 * Each case runs ~0.5 s per contender; the whole run stays well under 60 s. Reported: calls per second
 * of the fastest ~1 ms batch over six alternating rounds (robust to a busy machine).
 */
import fjs from 'fast-json-stringify'
import fjs7 from 'fjs7'
import { compileSerializer } from '../src/schema/serialization/index'

interface Case { name: string, schema: Record<string, unknown>, data: unknown }

const small = {
  name: '3-field object',
  schema: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, active: { type: 'boolean' } } },
  data: { id: 42, name: 'trellis', active: true }
}

const wideProps: Record<string, unknown> = {}
const wideData: Record<string, unknown> = {}
for (let i = 0; i < 25; i++) {
  const kind = i % 3
  wideProps['field' + String(i)] = { type: kind === 0 ? 'string' : kind === 1 ? 'number' : 'boolean' }
  wideData['field' + String(i)] = kind === 0 ? 'value number ' + String(i) : kind === 1 ? i * 1.5 : i % 2 === 0
}
const wide = { name: '25-field object', schema: { type: 'object', properties: wideProps }, data: wideData }

const itemSchema = { type: 'object', properties: { id: { type: 'integer' }, title: { type: 'string' }, price: { type: 'number' }, tags: { type: 'array', items: { type: 'string' } } } }
const array = {
  name: '100 items x 4 (tags array)',
  schema: { type: 'array', items: itemSchema },
  data: Array.from({ length: 100 }, (_, i) => ({ id: i, title: 'item ' + String(i), price: i * 0.25, tags: ['a', 'b'] }))
}

// 100 items x 8 fields: the shape of the whole-server benchmark's 100-item route
const CATEGORIES = ['books', 'games', 'garden', 'kitchen', 'music']
const rowSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    sku: { type: 'string' },
    name: { type: 'string' },
    price: { type: 'number' },
    inStock: { type: 'boolean' },
    category: { type: 'string' },
    rating: { type: 'number' },
    createdAt: { type: 'string' }
  }
}
const rows = {
  name: '100 items x 8 fields',
  schema: { type: 'array', items: rowSchema },
  data: Array.from({ length: 100 }, (_, i) => ({
    id: i + 1,
    sku: 'SKU-' + String(100000 + i * 7),
    name: 'Item number ' + String(i + 1),
    price: Math.round((5 + i * 1.37) * 100) / 100,
    inStock: i % 3 !== 0,
    category: CATEGORIES[i % CATEGORIES.length],
    rating: (i % 50) / 10,
    createdAt: new Date(Date.UTC(2022, 6, 1 + (i % 28))).toISOString()
  }))
}

const nested = {
  name: 'nested object',
  schema: {
    type: 'object',
    properties: {
      user: {
        type: 'object',
        properties: {
          id: { type: 'integer' },
          profile: { type: 'object', properties: { first: { type: 'string' }, last: { type: 'string' }, address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } } } },
          roles: { type: 'array', items: { type: 'string' } }
        }
      },
      meta: { type: 'object', properties: { page: { type: 'integer' }, total: { type: 'integer' } } }
    }
  },
  data: { user: { id: 7, profile: { first: 'Ada', last: 'Lovelace', address: { city: 'London', zip: 'N1' } }, roles: ['admin', 'dev'] }, meta: { page: 1, total: 10 } }
}

// 100 users: a nested object, a nullable string and a date-time Date per item
const users = {
  name: '100 users (nested, dates)',
  schema: {
    type: 'array',
    items: {
      type: 'object',
      properties: {
        id: { type: 'integer' },
        name: { type: 'string' },
        email: { type: 'string', nullable: true },
        address: { type: 'object', properties: { city: { type: 'string' }, zip: { type: 'string' } } },
        createdAt: { type: 'string', format: 'date-time' },
        score: { type: 'number' }
      }
    }
  },
  data: Array.from({ length: 100 }, (_, i) => ({
    id: i,
    name: 'User ' + String(i),
    email: i % 4 === 0 ? null : `u${i}@example.com`,
    address: { city: 'City ' + String(i % 7), zip: String(10000 + i) },
    createdAt: new Date(Date.UTC(2022, 0, 1 + i)),
    score: i / 4
  }))
}

const cases: Case[] = [small, wide, rows, array, users, nested]

/**
 * Calls per second of the fastest batch: each round runs batches of `batch` calls (about a
 * millisecond each) for `ms` milliseconds and keeps the quickest. On a shared machine a batch
 * the scheduler interrupts is only slower, so the minimum filters the interruptions out.
 */
function measure (fn: (x: unknown) => string, data: unknown, ms: number, byteLength = true): number {
  let sink = 0
  let batch = 1
  const call = byteLength ? (x: unknown): number => Buffer.byteLength(fn(x)) : (x: unknown): number => fn(x).length
  for (;;) { // size a batch to ~1 ms (also the warm-up)
    const t = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) sink += call(data)
    if (Number(process.hrtime.bigint() - t) > 1e6 || batch > 1e6) break
    batch *= 2
  }
  let best = Infinity
  const end = process.hrtime.bigint() + BigInt(ms) * 1_000_000n
  while (process.hrtime.bigint() < end) {
    const t = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) sink += call(data)
    best = Math.min(best, Number(process.hrtime.bigint() - t))
  }
  if (sink === -1) console.log(sink)
  return batch / (best / 1e9)
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(11)
const ROUNDS = 6
const MS = 80
console.log(`node ${process.version}, ${ROUNDS} alternating rounds x ${MS} ms per contender, fastest ~1 ms batch, every call + Buffer.byteLength\n`)
console.log('case'.padEnd(27) + 'trellis/s'.padStart(12) + 'fjs5/s'.padStart(12) + 'fjs7/s'.padStart(12) + 'JSON/s'.padStart(12) +
  '  vs fjs5  vs fjs7  vs JSON')
for (const c of cases) {
  const ours = compileSerializer(c.schema)
  const five = fjs(c.schema as never) as (x: unknown) => string
  const seven = fjs7(c.schema as never) as (x: unknown) => string
  for (const [name, f] of [['fjs5', five], ['fjs7', seven]] as const) {
    if (ours(c.data) !== f(c.data)) throw new Error(`outputs differ for ${c.name}: ${ours(c.data)} vs ${name} ${f(c.data)}`)
  }
  const best = { ours: 0, five: 0, seven: 0, json: 0 }
  for (let r = 0; r < ROUNDS; r++) {
    best.ours = Math.max(best.ours, measure(ours, c.data, MS))
    best.five = Math.max(best.five, measure(five, c.data, MS))
    best.seven = Math.max(best.seven, measure(seven, c.data, MS))
    best.json = Math.max(best.json, measure(JSON.stringify as (x: unknown) => string, c.data, MS))
  }
  const ratio = (n: number): string => (n.toFixed(2) + 'x').padStart(8)
  console.log(c.name.padEnd(27) + fmt(best.ours) + ' ' + fmt(best.five) + ' ' + fmt(best.seven) + ' ' + fmt(best.json) + ' ' +
    ratio(best.ours / best.five) + ' ' + ratio(best.ours / best.seven) + ' ' + ratio(best.ours / best.json))
}

// Where the time of the 100-item array goes: building the string vs measuring it (Buffer.byteLength
// flattens a concatenated rope first; JSON.stringify's and the byte form's results are flat), µs per call.
{
  const ours = compileSerializer(rows.schema)
  const json = JSON.stringify as (x: unknown) => string
  const best = { oursBuild: 0, oursAll: 0, jsonBuild: 0, jsonAll: 0 }
  for (let r = 0; r < ROUNDS; r++) {
    best.oursBuild = Math.max(best.oursBuild, measure(ours, rows.data, MS / 2, false))
    best.oursAll = Math.max(best.oursAll, measure(ours, rows.data, MS / 2))
    best.jsonBuild = Math.max(best.jsonBuild, measure(json, rows.data, MS / 2, false))
    best.jsonAll = Math.max(best.jsonAll, measure(json, rows.data, MS / 2))
  }
  const us = (perSecond: number): string => (1e6 / perSecond).toFixed(1)
  console.log(`\n${rows.name}, µs per call: trellis builds the string in ${us(best.oursBuild)}, + Buffer.byteLength ${us(best.oursAll)}; ` +
    `JSON.stringify ${us(best.jsonBuild)}, + Buffer.byteLength ${us(best.jsonAll)}`)
}

// The array forms the generator can choose (generate-array.ts), same process, alternating rounds, µs per
// call + Buffer.byteLength: bytes (the default where arrays are not projected), concatenation, projection.
{
  const us = (perSecond: number): string => (1e6 / perSecond).toFixed(1).padStart(7)
  console.log('\narray forms, µs per call + Buffer.byteLength'.padEnd(49) + 'bytes'.padStart(7) + 'concat'.padStart(7) + 'project'.padStart(8) + '   JSON')
  for (const c of [rows, array, users]) {
    const forms = [
      compileSerializer(c.schema, { projectArrays: false, projectArrayFields: false }),
      compileSerializer(c.schema, { projectArrays: false, projectArrayFields: false, byteArrays: false }),
      compileSerializer(c.schema, { projectArrays: true, projectArrayFields: true }),
      JSON.stringify as (x: unknown) => string
    ]
    const best = forms.map(() => 0)
    for (let r = 0; r < ROUNDS; r++) forms.forEach((f, i) => { best[i] = Math.max(best[i], measure(f, c.data, MS / 2)) })
    // '—' where the projection does not take the item schema (that serializer is the byte form)
    const projected = (forms[2] as unknown as { source: string }).source.includes('JSON.stringify(out)')
    console.log(('  ' + c.name).padEnd(48) + best.map((b, i) => (i === 2 && !projected ? '—' : us(b)).padStart(i === 2 ? 8 : 7)).join(''))
  }
}
