// Hand-written prototypes of the 100 items x 8 fields array loop (the shape of bench/serializer.bench.ts
// and the whole-server 100-item route), each call counted with Buffer.byteLength of its result (what a
// server pays: a rope is flattened first). Same process, alternating rounds, fastest ~1 ms batch.
// Ratios to JSON.stringify. Run under each Node line:
//   node bench/serializer-prototypes.cjs [rounds] [variant,variant,...]
//   "$(node scripts/node-line.mjs 24)" bench/serializer-prototypes.cjs
'use strict'
const CATEGORIES = ['books', 'games', 'garden', 'kitchen', 'music']
const items = Array.from({ length: Number(process.env.ITEMS ?? 100) }, (_, i) => ({
  id: i + 1,
  sku: 'SKU-' + String(100000 + i * 7),
  name: 'Item number ' + String(i + 1),
  price: Math.round((5 + i * 1.37) * 100) / 100,
  inStock: i % 3 !== 0,
  category: CATEGORIES[i % CATEGORIES.length],
  rating: (i % 50) / 10,
  createdAt: new Date(Date.UTC(2022, 6, 1 + (i % 28))).toISOString()
}))

// runtime helpers as in src/schema/serialization (escape.ts, number-format.ts)
function strU (str) {
  const len = str.length
  if (len < 42) {
    for (let i = 0; i < len; i++) {
      const c = str.charCodeAt(i)
      if (c < 32 || c === 34 || c === 92 || (c >= 0xd800 && c <= 0xdfff)) return JSON.stringify(str).slice(1, -1)
    }
    return str
  }
  return JSON.stringify(str).slice(1, -1)
}
function coerceStrU (v) { return JSON.stringify(String(v)).slice(1, -1) }
const FRACTION = []
for (let r = 0; r < 1000; r++) FRACTION.push(r === 0 ? '' : ('.' + String(r).padStart(3, '0')).replace(/0+$/, ''))
function fnum (n) {
  if (Number.isInteger(n)) return '' + n
  const a = n < 0 ? -n : n
  const m = Math.round(a * 1000)
  if (m / 1000 === a && m < 1e15) {
    const r = m % 1000
    return (n < 0 ? '-' : '') + ((m - r) / 1000) + FRACTION[r]
  }
  return '' + n
}
function num (v) { return '' + Number(v) }
function int (v) { return '' + Math.trunc(v) }
function resume () { throw new Error('not in the prototypes') }

// the generated item function today (straight-line form), and the array loop
function item (obj) {
  if (obj == null) return '{}'
  const v0 = obj.id
  if (v0 === undefined) return resume(obj, 0, [])
  const s8 = (Number.isInteger(v0) ? '' + v0 : int(v0))
  const v1 = obj.sku
  if (v1 === undefined) return resume(obj, 1, [s8])
  const s9 = (typeof v1 === 'string' ? strU(v1) : coerceStrU(v1))
  const v2 = obj.name
  if (v2 === undefined) return resume(obj, 2, [s8, s9])
  const s10 = (typeof v2 === 'string' ? strU(v2) : coerceStrU(v2))
  const v3 = obj.price
  if (v3 === undefined) return resume(obj, 3, [s8, s9, s10])
  const s11 = ((typeof v3 === 'number' && v3 - v3 === 0) ? fnum(v3) : num(v3))
  const v4 = obj.inStock
  if (v4 === undefined) return resume(obj, 4, [s8, s9, s10, s11])
  const s12 = (v4 ? 'true' : 'false')
  const v5 = obj.category
  if (v5 === undefined) return resume(obj, 5, [s8, s9, s10, s11, s12])
  const s13 = (typeof v5 === 'string' ? strU(v5) : coerceStrU(v5))
  const v6 = obj.rating
  if (v6 === undefined) return resume(obj, 6, [s8, s9, s10, s11, s12, s13])
  const s14 = ((typeof v6 === 'number' && v6 - v6 === 0) ? fnum(v6) : num(v6))
  const v7 = obj.createdAt
  if (v7 === undefined) return resume(obj, 7, [s8, s9, s10, s11, s12, s13, s14])
  const s15 = (typeof v7 === 'string' ? strU(v7) : coerceStrU(v7))
  return '{"id":' + s8 + ',"sku":"' + s9 + '","name":"' + s10 + '","price":' + s11 + ',"inStock":' + s12 + ',"category":"' + s13 + '","rating":' + s14 + ',"createdAt":"' + s15 + '"}'
}
function current (input) {
  const n = input.length
  if (n === 0) return '[]'
  let json = '[' + item(input[0])
  for (let i = 1; i < n; i++) json += ',' + item(input[i])
  return json + ']'
}

// booleans folded into the literals around them: one leaf and one cons node fewer per boolean
function itemBool (obj) {
  if (obj == null) return '{}'
  const v0 = obj.id
  if (v0 === undefined) return resume(obj, 0, [])
  const s8 = (Number.isInteger(v0) ? '' + v0 : int(v0))
  const v1 = obj.sku
  if (v1 === undefined) return resume(obj, 1, [s8])
  const s9 = (typeof v1 === 'string' ? strU(v1) : coerceStrU(v1))
  const v2 = obj.name
  if (v2 === undefined) return resume(obj, 2, [s8, s9])
  const s10 = (typeof v2 === 'string' ? strU(v2) : coerceStrU(v2))
  const v3 = obj.price
  if (v3 === undefined) return resume(obj, 3, [s8, s9, s10])
  const s11 = ((typeof v3 === 'number' && v3 - v3 === 0) ? fnum(v3) : num(v3))
  const v4 = obj.inStock
  if (v4 === undefined) return resume(obj, 4, [s8, s9, s10, s11])
  const v5 = obj.category
  if (v5 === undefined) return resume(obj, 5, [s8, s9, s10, s11, v4 ? 'true' : 'false'])
  const s13 = (typeof v5 === 'string' ? strU(v5) : coerceStrU(v5))
  const v6 = obj.rating
  if (v6 === undefined) return resume(obj, 6, [s8, s9, s10, s11, v4 ? 'true' : 'false', s13])
  const s14 = ((typeof v6 === 'number' && v6 - v6 === 0) ? fnum(v6) : num(v6))
  const v7 = obj.createdAt
  if (v7 === undefined) return resume(obj, 7, [s8, s9, s10, s11, v4 ? 'true' : 'false', s13, s14])
  const s15 = (typeof v7 === 'string' ? strU(v7) : coerceStrU(v7))
  return '{"id":' + s8 + ',"sku":"' + s9 + '","name":"' + s10 + '","price":' + s11 +
    (v4 ? ',"inStock":true,"category":"' : ',"inStock":false,"category":"') + s13 + '","rating":' + s14 + ',"createdAt":"' + s15 + '"}'
}
function currentBool (input) {
  const n = input.length
  if (n === 0) return '[]'
  let json = '[' + itemBool(input[0])
  for (let i = 1; i < n; i++) json += ',' + itemBool(input[i])
  return json + ']'
}

// item function appends to the caller's accumulator (left-associative chain on `json`)
function itemAcc (json, obj) {
  const v0 = obj.id
  const s8 = (Number.isInteger(v0) ? '' + v0 : int(v0))
  const v1 = obj.sku
  const s9 = (typeof v1 === 'string' ? strU(v1) : coerceStrU(v1))
  const v2 = obj.name
  const s10 = (typeof v2 === 'string' ? strU(v2) : coerceStrU(v2))
  const v3 = obj.price
  const s11 = ((typeof v3 === 'number' && v3 - v3 === 0) ? fnum(v3) : num(v3))
  const v4 = obj.inStock
  const s12 = (v4 ? 'true' : 'false')
  const v5 = obj.category
  const s13 = (typeof v5 === 'string' ? strU(v5) : coerceStrU(v5))
  const v6 = obj.rating
  const s14 = ((typeof v6 === 'number' && v6 - v6 === 0) ? fnum(v6) : num(v6))
  const v7 = obj.createdAt
  const s15 = (typeof v7 === 'string' ? strU(v7) : coerceStrU(v7))
  return json + '{"id":' + s8 + ',"sku":"' + s9 + '","name":"' + s10 + '","price":' + s11 + ',"inStock":' + s12 + ',"category":"' + s13 + '","rating":' + s14 + ',"createdAt":"' + s15 + '"}'
}
function accumulate (input) {
  const n = input.length
  let json = itemAcc('[', input[0])
  for (let i = 1; i < n; i++) json = itemAcc(json + ',', input[i])
  return json + ']'
}

// every piece of every item pushed to one array, one join: a flat string, no cons nodes
function itemParts (p, obj) {
  const v0 = obj.id
  const s8 = (Number.isInteger(v0) ? '' + v0 : int(v0))
  const v1 = obj.sku
  const s9 = (typeof v1 === 'string' ? strU(v1) : coerceStrU(v1))
  const v2 = obj.name
  const s10 = (typeof v2 === 'string' ? strU(v2) : coerceStrU(v2))
  const v3 = obj.price
  const s11 = ((typeof v3 === 'number' && v3 - v3 === 0) ? fnum(v3) : num(v3))
  const v4 = obj.inStock
  const v5 = obj.category
  const s13 = (typeof v5 === 'string' ? strU(v5) : coerceStrU(v5))
  const v6 = obj.rating
  const s14 = ((typeof v6 === 'number' && v6 - v6 === 0) ? fnum(v6) : num(v6))
  const v7 = obj.createdAt
  const s15 = (typeof v7 === 'string' ? strU(v7) : coerceStrU(v7))
  p.push('{"id":', s8, ',"sku":"', s9, '","name":"', s10, '","price":', s11,
    v4 ? ',"inStock":true,"category":"' : ',"inStock":false,"category":"', s13, '","rating":', s14, ',"createdAt":"', s15, '"}')
}
function joinAll (input) {
  const n = input.length
  const p = ['[']
  itemParts(p, input[0])
  for (let i = 1; i < n; i++) { p.push(','); itemParts(p, input[i]) }
  p.push(']')
  return p.join('')
}

// item strings (ropes, booleans folded) joined once
function joinItems (input) {
  const n = input.length
  const p = new Array(n)
  for (let i = 0; i < n; i++) p[i] = itemBool(input[i])
  return '[' + p.join(',') + ']'
}

// each item flattened as soon as it is built (while its pieces are in cache)
function flatItems (input) {
  const n = input.length
  let s = itemBool(input[0]); s.charCodeAt(0)
  let json = '[' + s
  for (let i = 1; i < n; i++) { s = itemBool(input[i]); s.charCodeAt(0); json += ',' + s }
  return json + ']'
}

// a rope of K items flattened at a time (K = 10)
function chunked (input) {
  const n = input.length
  let json = '['
  let chunk = itemBool(input[0])
  for (let i = 1; i < n; i++) {
    if (i % 10 === 0) { chunk.charCodeAt(0); json += chunk; chunk = ',' + itemBool(input[i]) } else chunk += ',' + itemBool(input[i])
  }
  return json + chunk + ']'
}

// the whole loop inlined, appending to one accumulator (what TurboFan's string builder would look for)
function inlineAcc (input) {
  const n = input.length
  let json = '['
  for (let i = 0; i < n; i++) {
    const obj = input[i]
    const v0 = obj.id
    const s8 = (Number.isInteger(v0) ? '' + v0 : int(v0))
    const v1 = obj.sku
    const s9 = (typeof v1 === 'string' ? strU(v1) : coerceStrU(v1))
    const v2 = obj.name
    const s10 = (typeof v2 === 'string' ? strU(v2) : coerceStrU(v2))
    const v3 = obj.price
    const s11 = ((typeof v3 === 'number' && v3 - v3 === 0) ? fnum(v3) : num(v3))
    const v4 = obj.inStock
    const v5 = obj.category
    const s13 = (typeof v5 === 'string' ? strU(v5) : coerceStrU(v5))
    const v6 = obj.rating
    const s14 = ((typeof v6 === 'number' && v6 - v6 === 0) ? fnum(v6) : num(v6))
    const v7 = obj.createdAt
    const s15 = (typeof v7 === 'string' ? strU(v7) : coerceStrU(v7))
    json = json + (i === 0 ? '{"id":' : ',{"id":') + s8 + ',"sku":"' + s9 + '","name":"' + s10 + '","price":' + s11 +
      (v4 ? ',"inStock":true,"category":"' : ',"inStock":false,"category":"') + s13 + '","rating":' + s14 + ',"createdAt":"' + s15 + '"}'
  }
  return json + ']'
}

// the array's comma folded into the item's opening literal (booleans folded too): one node fewer per item
function itemOpen (obj, open) {
  const v0 = obj.id
  const s8 = (Number.isInteger(v0) ? '' + v0 : int(v0))
  const v1 = obj.sku
  const s9 = (typeof v1 === 'string' ? strU(v1) : coerceStrU(v1))
  const v2 = obj.name
  const s10 = (typeof v2 === 'string' ? strU(v2) : coerceStrU(v2))
  const v3 = obj.price
  const s11 = ((typeof v3 === 'number' && v3 - v3 === 0) ? fnum(v3) : num(v3))
  const v4 = obj.inStock
  const v5 = obj.category
  const s13 = (typeof v5 === 'string' ? strU(v5) : coerceStrU(v5))
  const v6 = obj.rating
  const s14 = ((typeof v6 === 'number' && v6 - v6 === 0) ? fnum(v6) : num(v6))
  const v7 = obj.createdAt
  const s15 = (typeof v7 === 'string' ? strU(v7) : coerceStrU(v7))
  return (open ? ',{"id":' : '[{"id":') + s8 + ',"sku":"' + s9 + '","name":"' + s10 + '","price":' + s11 +
    (v4 ? ',"inStock":true,"category":"' : ',"inStock":false,"category":"') + s13 + '","rating":' + s14 + ',"createdAt":"' + s15 + '"}'
}
function commaMerged (input) {
  const n = input.length
  let json = itemOpen(input[0], false)
  for (let i = 1; i < n; i++) json += itemOpen(input[i], true)
  return json + ']'
}

// project into fresh objects, one JSON.stringify (generate-projection.ts)
function pick (input) {
  const n = input.length
  const out = new Array(n)
  for (let i = 0; i < n; i++) {
    const o = input[i]
    out[i] = { id: o.id, sku: o.sku, name: o.name, price: o.price, inStock: o.inStock, category: o.category, rating: o.rating, createdAt: o.createdAt }
  }
  return JSON.stringify(out)
}
// the same with the decimals pre-formatted as raw JSON (JSON.rawJSON: V8 11.4+, not Node 20)
const raw = JSON.rawJSON
function pickRaw (input) {
  const n = input.length
  const out = new Array(n)
  for (let i = 0; i < n; i++) {
    const o = input[i]
    out[i] = { id: o.id, sku: o.sku, name: o.name, price: raw(fnum(o.price)), inStock: o.inStock, category: o.category, rating: raw(fnum(o.rating)), createdAt: o.createdAt }
  }
  return JSON.stringify(out)
}

// bytes written into one scratch buffer (literals as stores, digits computed, strings copied char by
// char while they are checked), then one latin1 decode: a flat string, no rope, no number strings
let scratch = Buffer.allocUnsafe(1 << 16)
function grow (b, o, need) {
  const next = Buffer.allocUnsafe(Math.max(b.length * 2, o + need))
  b.copy(next, 0, 0, o)
  scratch = next
  return next
}
function wint (b, o, n) { // a non-negative safe integer
  if (n < 10) { b[o] = 48 + n; return o + 1 }
  const d = n < 100 ? 2 : n < 1000 ? 3 : n < 10000 ? 4 : n < 100000 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : ('' + n).length
  let e = o + d
  while (n >= 10) { const q = Math.floor(n / 10); b[--e] = 48 + n - q * 10; n = q }
  b[--e] = 48 + n
  return o + d
}
const SLOW = -1
function wnum (b, o, n) { // finite number, as '' + n writes it, or SLOW
  if (n < 0) { b[o++] = 45; n = -n }
  if (Number.isInteger(n)) return n < 1e15 ? wint(b, o, n) : SLOW
  const m = Math.round(n * 1000)
  if (m / 1000 !== n || m >= 1e15) return SLOW
  const r = m % 1000
  o = wint(b, o, (m - r) / 1000)
  b[o++] = 46
  const h = Math.floor(r / 100); const t = Math.floor(r / 10) % 10; const u = r % 10
  b[o++] = 48 + h
  if (t !== 0 || u !== 0) { b[o++] = 48 + t; if (u !== 0) b[o++] = 48 + u }
  return o
}
function wstr (b, o, s) { // string content without escapes (Latin-1, nothing to escape), or SLOW
  const len = s.length
  for (let i = 0; i < len; i++) {
    const c = s.charCodeAt(i)
    if (c < 32 || c === 34 || c === 92 || c > 255) return SLOW
    b[o + i] = c
  }
  return o + len
}
function bytes (input) {
  const n = input.length
  let b = scratch
  let o = 0
  b[o++] = 91
  for (let i = 0; i < n; i++) {
    const obj = input[i]
    if (o + 256 > b.length) b = grow(b, o, 256)
    if (i !== 0) b[o++] = 44
    b[o++] = 123; b[o++] = 34; b[o++] = 105; b[o++] = 100; b[o++] = 34; b[o++] = 58 // {"id":
    const v0 = obj.id
    if (!Number.isInteger(v0) || v0 < 0 || v0 >= 1e15) return resume()
    o = wint(b, o, v0)
    b[o++] = 44; b[o++] = 34; b[o++] = 115; b[o++] = 107; b[o++] = 117; b[o++] = 34; b[o++] = 58; b[o++] = 34 // ,"sku":"
    const v1 = obj.sku
    if (typeof v1 !== 'string') return resume()
    if (o + v1.length + 64 > b.length) b = grow(b, o, v1.length + 64)
    o = wstr(b, o, v1); if (o < 0) return resume()
    b[o++] = 34; b[o++] = 44; b[o++] = 34; b[o++] = 110; b[o++] = 97; b[o++] = 109; b[o++] = 101; b[o++] = 34; b[o++] = 58; b[o++] = 34 // ","name":"
    const v2 = obj.name
    if (typeof v2 !== 'string') return resume()
    if (o + v2.length + 64 > b.length) b = grow(b, o, v2.length + 64)
    o = wstr(b, o, v2); if (o < 0) return resume()
    b[o++] = 34; b[o++] = 44; b[o++] = 34; b[o++] = 112; b[o++] = 114; b[o++] = 105; b[o++] = 99; b[o++] = 101; b[o++] = 34; b[o++] = 58 // ","price":
    const v3 = obj.price
    if (typeof v3 !== 'number' || v3 - v3 !== 0) return resume()
    o = wnum(b, o, v3); if (o < 0) return resume()
    b[o++] = 44; b[o++] = 34; b[o++] = 105; b[o++] = 110; b[o++] = 83; b[o++] = 116; b[o++] = 111; b[o++] = 99; b[o++] = 107; b[o++] = 34; b[o++] = 58 // ,"inStock":
    const v4 = obj.inStock
    if (v4) { b[o++] = 116; b[o++] = 114; b[o++] = 117; b[o++] = 101 } else { b[o++] = 102; b[o++] = 97; b[o++] = 108; b[o++] = 115; b[o++] = 101 }
    b[o++] = 44; b[o++] = 34; b[o++] = 99; b[o++] = 97; b[o++] = 116; b[o++] = 101; b[o++] = 103; b[o++] = 111; b[o++] = 114; b[o++] = 121; b[o++] = 34; b[o++] = 58; b[o++] = 34 // ,"category":"
    const v5 = obj.category
    if (typeof v5 !== 'string') return resume()
    if (o + v5.length + 64 > b.length) b = grow(b, o, v5.length + 64)
    o = wstr(b, o, v5); if (o < 0) return resume()
    b[o++] = 34; b[o++] = 44; b[o++] = 34; b[o++] = 114; b[o++] = 97; b[o++] = 116; b[o++] = 105; b[o++] = 110; b[o++] = 103; b[o++] = 34; b[o++] = 58 // ","rating":
    const v6 = obj.rating
    if (typeof v6 !== 'number' || v6 - v6 !== 0) return resume()
    o = wnum(b, o, v6); if (o < 0) return resume()
    b[o++] = 44; b[o++] = 34; b[o++] = 99; b[o++] = 114; b[o++] = 101; b[o++] = 97; b[o++] = 116; b[o++] = 101; b[o++] = 100; b[o++] = 65; b[o++] = 116; b[o++] = 34; b[o++] = 58; b[o++] = 34 // ,"createdAt":"
    const v7 = obj.createdAt
    if (typeof v7 !== 'string') return resume()
    if (o + v7.length + 64 > b.length) b = grow(b, o, v7.length + 64)
    o = wstr(b, o, v7); if (o < 0) return resume()
    b[o++] = 34; b[o++] = 125 // "}
  }
  b[o++] = 93
  return utf8 ? b.utf8Slice(0, o) : b.latin1Slice(0, o)
}
let utf8 = false
function bytesUtf8 (input) { // the same, decoded as UTF-8 (so non-Latin-1 text can be written as UTF-8 bytes)
  utf8 = true
  const s = bytes(input)
  utf8 = false
  return s
}

const variants = { bytes, bytesUtf8, current, currentBool, commaMerged, accumulate, joinAll, joinItems, flatItems, chunked, inlineAcc, pick, ...(raw ? { pickRaw } : {}) }
const json = (x) => JSON.stringify(x)
const expected = JSON.stringify(items)
for (const [name, f] of Object.entries(variants)) if (f(items) !== expected) throw new Error(name + ' differs: ' + f(items).slice(0, 200))

function measure (fn, data, ms, byteLength) {
  let sink = 0
  let batch = 1
  for (;;) {
    const t = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) sink += byteLength ? Buffer.byteLength(fn(data)) : fn(data).length
    if (Number(process.hrtime.bigint() - t) > 1e6 || batch > 1e6) break
    batch *= 2
  }
  let best = Infinity
  const end = process.hrtime.bigint() + BigInt(ms) * 1000000n
  while (process.hrtime.bigint() < end) {
    const t = process.hrtime.bigint()
    for (let i = 0; i < batch; i++) sink += byteLength ? Buffer.byteLength(fn(data)) : fn(data).length
    best = Math.min(best, Number(process.hrtime.bigint() - t) / batch)
  }
  if (sink === -1) console.log(sink)
  return best / 1000 // µs per call
}

module.exports = { variants, items }
if (require.main === module) main()

function main () {
  const rounds = Number(process.argv[2] ?? 8)
  const only = process.argv[3] ? process.argv[3].split(',') : Object.keys(variants)
  const list = [['JSON.stringify', json], ...only.map((k) => [k, variants[k]])]
  const best = {}
  const bestBuild = {}
  for (let r = 0; r < rounds; r++) {
    for (const [name, f] of list) {
      best[name] = Math.min(best[name] ?? Infinity, measure(f, items, 60, true))
      bestBuild[name] = Math.min(bestBuild[name] ?? Infinity, measure(f, items, 30, false))
    }
  }
  console.log(`node ${process.version} (V8 ${process.versions.v8}), ${rounds} rounds; µs per call (build / + byteLength), ratio to JSON.stringify incl. byteLength`)
  for (const [name] of list) {
    console.log(name.padEnd(16) + bestBuild[name].toFixed(1).padStart(7) + best[name].toFixed(1).padStart(7) + (best['JSON.stringify'] / best[name]).toFixed(2).padStart(7) + 'x')
  }
}
