/**
 * Serializer benchmark: trellis' compiled serializer vs fast-json-stringify@5 vs JSON.stringify.
 * Run: npm run bench:serializer   (node --import tsx bench/serializer.bench.ts)
 * Each case runs ~0.6 s per contender after warm-up; the whole run stays well under 60 s.
 */
import fjs from 'fast-json-stringify'
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
  name: '100-item array of objects',
  schema: { type: 'array', items: itemSchema },
  data: Array.from({ length: 100 }, (_, i) => ({ id: i, title: 'item ' + String(i), price: i * 0.25, tags: ['a', 'b'] }))
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

const cases: Case[] = [small, wide, array, nested]

function measure (fn: (x: unknown) => string, data: unknown, ms: number): number {
  let sink = 0
  for (let i = 0; i < 2000; i++) sink += fn(data).length // warm-up
  let ops = 0
  const start = process.hrtime.bigint()
  const limit = BigInt(ms) * 1_000_000n
  let elapsed = 0n
  while (elapsed < limit) {
    for (let i = 0; i < 200; i++) sink += fn(data).length
    ops += 200
    elapsed = process.hrtime.bigint() - start
  }
  if (sink === -1) console.log(sink)
  return ops / (Number(elapsed) / 1e9)
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US').padStart(12)
const ROUNDS = 6
const MS = 120
console.log(`node ${process.version}, ${ROUNDS} alternating rounds x ${MS} ms per contender, best round reported\n`)
console.log('case'.padEnd(28) + 'trellis ops/s'.padStart(14) + 'fjs@5 ops/s'.padStart(14) + 'JSON ops/s'.padStart(14) + '  trellis/fjs  trellis/JSON')
for (const c of cases) {
  const ours = compileSerializer(c.schema)
  const theirs = fjs(c.schema as never) as (x: unknown) => string
  if (ours(c.data) !== theirs(c.data)) throw new Error(`outputs differ for ${c.name}: ${ours(c.data)} vs ${theirs(c.data)}`)
  const best = { ours: 0, fjs: 0, json: 0 }
  for (let r = 0; r < ROUNDS; r++) {
    best.ours = Math.max(best.ours, measure(ours, c.data, MS))
    best.fjs = Math.max(best.fjs, measure(theirs, c.data, MS))
    best.json = Math.max(best.json, measure(JSON.stringify as (x: unknown) => string, c.data, MS))
  }
  console.log(c.name.padEnd(28) + fmt(best.ours) + '  ' + fmt(best.fjs) + '  ' + fmt(best.json) + '  ' +
    (best.ours / best.fjs).toFixed(2).padStart(10) + 'x' + (best.ours / best.json).toFixed(2).padStart(12) + 'x')
}
