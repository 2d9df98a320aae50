import { test, after } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectModules, packageName, writeModulePack } from '../../src/module-pack/write-pack'
import { openModulePack, requireFrom, type ActivePack } from '../../src/module-pack/load-pack'
import { PACK_CODE_CACHE_FILE } from '../../src/module-pack/pack-format'

// The module pack's writer and loader on a small library of their own (test/cli/module-pack.test.ts
// runs them on trellis itself, through the built entries): which modules are packed, how a packed
// module is a CommonJS module of its own, and when a pack is refused.
const work = mkdtempSync(join(tmpdir(), 'trellis-pack-unit-'))
after(() => rmSync(work, { recursive: true, force: true }))

let libs = 0
/** A library directory with these files (a fresh directory each call: require.cache keeps modules by file name). */
function library (files: Record<string, string>): string {
  const dir = join(work, `lib${++libs}`)
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true })
    writeFileSync(join(dir, name), text)
  }
  return dir
}

const LIBRARY = {
  'index.js': `'use strict'
const path = require('node:path')
const counter = require('./counter')
const dep = require('dep')
exports.where = () => [__filename, __dirname, path.basename(__filename)]
exports.counter = counter
exports.dep = dep
exports.lazy = () => require('./lazy')
exports.viaDisk = () => require('./dynamic')
exports.computed = (name) => require('./' + name)
exports.resolved = () => require.resolve('./counter')
`,
  'counter.js': "let n = 0\nexports.next = () => ++n\nexports.name = 'tr\\u00e9llis' // é\n",
  'lazy.js': 'exports.loadedLazily = true\n',
  'dynamic.js': 'exports.load = (s) => import(s)\n',
  'computed.js': 'exports.computed = true\n',
  'throws.js': "throw new Error('broken at load')\n",
  'node_modules/dep/package.json': '{"name":"dep","main":"main.js"}',
  'node_modules/dep/main.js': "exports.dep = require('./inner').inner\n",
  'node_modules/dep/inner.js': "exports.inner = 'inner'\n"
}

function warningsDuring<T> (fn: () => T): { value: T, warnings: string[] } {
  const warnings: string[] = []
  const emit = process.emitWarning
  process.emitWarning = ((message: string, _type?: string, code?: string) => { warnings.push(`${String(code)} ${message}`) }) as typeof process.emitWarning
  try {
    return { value: fn(), warnings }
  } finally {
    process.emitWarning = emit
  }
}

test('packageName names the package of a bare specifier', () => {
  assert.equal(packageName('find-my-way/lib/node'), 'find-my-way')
  assert.equal(packageName('@opentelemetry/api/build'), '@opentelemetry/api')
  assert.equal(packageName('./x'), undefined)
  assert.equal(packageName('/abs/x'), undefined)
})

test('the writer follows literal requires from the roots, into packages; builtins, computed names and dynamic imports stay out', () => {
  const lib = library(LIBRARY)
  const packed = collectModules(lib, ['index.js']).map((m) => m.file.slice(lib.length + 1)).sort()
  assert.deepEqual(packed, ['counter.js', 'index.js', 'lazy.js', 'node_modules/dep/inner.js', 'node_modules/dep/main.js'])
  const only = collectModules(lib, ['index.js'], ['index.js', 'counter.js'])
  assert.deepEqual(only.map((m) => m.file.slice(lib.length + 1)), ['index.js', 'counter.js'])
  assert.deepEqual(Object.keys(only[0].requires), ['./counter']) // requires outside the set go to Node
})

test('a packed module is a CommonJS module of its own: require.cache, __filename, lazy requires, requires left to Node', () => {
  const lib = library(LIBRARY)
  const out = join(work, `pack${libs}`)
  mkdirSync(out)
  const written = writeModulePack(out, lib, undefined, ['index.js'])
  assert.equal(written.modules, 5)
  assert.ok(readFileSync(join(out, 'modules.js')).every((byte) => byte < 0x80))
  const { value: pack, warnings } = warningsDuring(() => openModulePack(out, lib))
  assert.deepEqual(warnings, [])
  assert.ok(pack !== null)
  assert.equal(pack.codeCacheRejected, true) // no code cache yet: parsed
  const index = requireFrom(pack, join(lib, 'index.js')) as Record<string, (...a: any[]) => any>
  assert.deepEqual(index.where(), [join(lib, 'index.js'), lib, 'index.js'])
  assert.deepEqual(index.dep, { dep: 'inner' })
  assert.equal((index.counter as any).name, 'tréllis')
  // one instance per file: the pack's module is the one require() finds
  assert.equal(require(join(lib, 'counter.js')), index.counter)
  assert.equal((index.counter as any).next(), 1)
  assert.equal((require(join(lib, 'counter.js')) as any).next(), 2)
  assert.deepEqual(pack.evaluated, ['counter.js', 'node_modules/dep/inner.js', 'node_modules/dep/main.js', 'index.js'])
  assert.deepEqual(index.lazy(), { loadedLazily: true })
  assert.equal(pack.evaluated.at(-1), 'lazy.js')
  assert.equal(index.computed('computed').computed, true) // a computed name: from disk
  assert.equal(index.resolved(), join(lib, 'counter.js'))
  assert.equal(typeof index.viaDisk().load, 'function') // a module with import(): from disk
  assert.ok(!pack.evaluated.includes('dynamic.js'))
  assert.throws(() => require(join(lib, 'throws.js')), /broken at load/)
})

test('a module already loaded from disk is not loaded again; one that throws while loading from the pack is not cached', () => {
  const lib = library({ ...LIBRARY, 'index.js': "exports.counter = require('./counter')\nexports.broken = () => require('./throws')\n" })
  const out = join(work, `pack${libs}`)
  mkdirSync(out)
  writeModulePack(out, lib, undefined, ['index.js', 'throws.js'])
  const fromDisk = require(join(lib, 'counter.js'))
  const pack = openModulePack(out, lib) as ActivePack
  const index = requireFrom(pack, join(lib, 'index.js')) as Record<string, any>
  assert.equal(index.counter, fromDisk)
  assert.deepEqual(pack.evaluated, ['index.js'])
  assert.throws(() => index.broken(), /broken at load/)
  assert.equal(require.cache[join(lib, 'throws.js')], undefined)
})

test('the code cache made after a run is taken by the next process\'s pack; a changed or missing file, a damaged pack, or a foreign index refuse it with one warning', () => {
  const lib = library(LIBRARY)
  const out = join(work, `pack${libs}`)
  mkdirSync(out)
  writeModulePack(out, lib, undefined, ['index.js'])
  const first = openModulePack(out, lib) as ActivePack
  requireFrom(first, join(lib, 'index.js'))
  writeFileSync(join(out, PACK_CODE_CACHE_FILE), first.script.createCachedData())
  const second = openModulePack(out, lib) as ActivePack
  assert.equal(second.codeCacheRejected, false)

  utimesSync(join(lib, 'lazy.js'), new Date(), new Date(Date.now() + 5000))
  const changed = warningsDuring(() => openModulePack(out, lib))
  assert.equal(changed.value, null)
  assert.equal(changed.warnings.length, 1)
  assert.match(changed.warnings[0], /^TRLAOT002 the module pack in .* is not used: lazy\.js changed since the build \(rerun trellis build\); trellis loads its modules from disk$/)

  writeModulePack(out, lib, undefined, ['index.js'])
  rmSync(join(lib, 'lazy.js'))
  assert.match(warningsDuring(() => openModulePack(out, lib)).warnings[0], /lazy\.js changed since the build/)

  const lib2 = library(LIBRARY)
  const out2 = join(work, `pack${libs}`)
  mkdirSync(out2)
  writeModulePack(out2, lib2, undefined, ['index.js'])
  const text = readFileSync(join(out2, 'modules.js'), 'utf8')
  writeFileSync(join(out2, 'modules.js'), text.replace('"index.js"', '"other.js"'))
  assert.match(warningsDuring(() => openModulePack(out2, lib2)).warnings[0], /modules\.js is not the pack modules\.json describes/)
  writeFileSync(join(out2, 'modules.js'), 'syntax error ' + text.slice(13))
  assert.match(warningsDuring(() => openModulePack(out2, lib2)).warnings[0], /modules\.js failed to load/)
  writeFileSync(join(out2, 'modules.json'), JSON.stringify({ format: 1, bytes: 1, files: [{ path: 7 }] }))
  assert.match(warningsDuring(() => openModulePack(out2, lib2)).warnings[0], /modules\.json is not a module pack index of this trellis/)
  writeFileSync(join(out2, 'modules.json'), '{"format":0}')
  assert.match(warningsDuring(() => openModulePack(out2, lib2)).warnings[0], /modules\.json is not a module pack index of this trellis/)
  writeFileSync(join(out2, 'modules.json'), 'not json')
  assert.match(warningsDuring(() => openModulePack(out2, lib2)).warnings[0], /modules\.json is not JSON/)
  rmSync(join(out2, 'modules.json'))
  const none = warningsDuring(() => openModulePack(out2, lib2))
  assert.equal(none.value, null)
  assert.deepEqual(none.warnings, []) // a directory without a pack: nothing to say
})

/** Runs `fn` as if this process were Deno (which reports a Node version of its own too). */
function asDeno<T> (fn: () => T): T {
  Object.defineProperty(process.versions, 'deno', { value: '2.1.0', configurable: true, enumerable: true })
  try {
    return fn()
  } finally {
    Reflect.deleteProperty(process.versions, 'deno')
  }
}

test('a pack records the runtime that built it; one built under another runtime is refused with a warning naming both, before any file is compared', () => {
  const lib = library(LIBRARY)
  const out = join(work, `pack${libs}`)
  mkdirSync(out)
  writeModulePack(out, lib, undefined, ['index.js'])
  const index = JSON.parse(readFileSync(join(out, 'modules.json'), 'utf8'))
  assert.equal(index.runtime, 'node')

  const underDeno = asDeno(() => warningsDuring(() => openModulePack(out, lib)))
  assert.equal(underDeno.value, null)
  assert.deepEqual(underDeno.warnings.map((w) => w.replace(out, '<dir>')), [
    'TRLAOT002 the module pack in <dir> is not used: it was built under Node.js and this process runs Deno; rerun trellis build under Deno; trellis loads its modules from disk'
  ])

  writeFileSync(join(out, 'modules.json'), JSON.stringify({ ...index, runtime: 'bun' }))
  const fromBun = warningsDuring(() => openModulePack(out, lib))
  assert.equal(fromBun.value, null)
  assert.match(fromBun.warnings[0], /is not used: it was built under Bun and this process runs Node\.js; rerun trellis build under Node\.js;/)

  // a pack from before the runtime was recorded was built under Node.js
  const { runtime: _, ...older } = index
  writeFileSync(join(out, 'modules.json'), JSON.stringify(older))
  const unrecorded = warningsDuring(() => openModulePack(out, lib))
  assert.deepEqual(unrecorded.warnings, [])
  assert.notEqual(unrecorded.value, null)
})
