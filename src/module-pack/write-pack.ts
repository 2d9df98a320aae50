/**
 * Writes the module pack (./pack-format.ts) for the trellis installation this code runs from: starting
 * from every public entry's module, follows each literal `require('…')` that resolves to a JavaScript
 * file (not Node's own modules, JSON, native addons or UNPACKED_PACKAGES), and puts each module's
 * source (the same program; characters outside ASCII escaped: asciiSource) in the function Node's
 * loader would wrap it in. A require() the pack cannot resolve (a computed name, an optional module)
 * is left to Node at run time.
 */
import { readFileSync, statSync } from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { join, relative, sep } from 'node:path'
import { runtimeId } from '../base/runtime'
import { writeFileWhole as writeFile } from '../base/write-file-whole'
import { PACK_FILE, PACK_FORMAT, PACK_INDEX_FILE, PACK_ROOTS, UNPACKED_PACKAGES, type PackIndex, type PackedFile } from './pack-format'

const LITERAL_REQUIRE = /\brequire\((['"])([^'"\n]+)\1\)/g
/**
 * A module with a dynamic import() stays on disk: V8 drops the import callback of a script whose
 * code comes from a code cache (Node 20), so import() inside the pack would fail.
 */
const DYNAMIC_IMPORT = /\bimport\s*\(/
/** Block comments and whole-line comments (`import('./types')` in JSDoc is not an import). */
const COMMENTS = /\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm

/** White space and line terminators outside ASCII (ECMA-262 WhiteSpace and LineTerminator). */
const UNICODE_SPACE = /[\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]/

export function hasUnicodeSpace (source: string): boolean {
  return UNICODE_SPACE.test(source)
}

export function hasDynamicImport (source: string): boolean {
  return DYNAMIC_IMPORT.test(source.replace(COMMENTS, ''))
}

/** The package a bare specifier names (`@scope/name/x` -> `@scope/name`), or undefined for a path. */
export function packageName (specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/')) return undefined
  const parts = specifier.split('/')
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]
}

function isBuiltin (specifier: string): boolean {
  return specifier.startsWith('node:') || builtinModules.includes(specifier)
}

interface Collected { file: string, source: string, requires: Record<string, string> }

/**
 * Every module reachable from the roots by literal requires, each with its resolved requires; with
 * `only` (paths relative to libDir), exactly those modules, their requires kept among them.
 */
export function collectModules (libDir: string, roots: readonly string[] = PACK_ROOTS, only?: readonly string[]): Collected[] {
  const found = new Map<string, Collected | null>()
  const queue = (only ?? roots).map((r) => join(libDir, r))
  const allowed = only === undefined ? undefined : new Set(queue)
  while (queue.length > 0) {
    const file = queue.shift() as string
    if (found.has(file)) continue
    const source = readFileSync(file, 'utf8')
    // left on disk: see DYNAMIC_IMPORT and asciiSource
    if (hasDynamicImport(source) || hasUnicodeSpace(source)) { found.set(file, null); continue }
    const requires: Record<string, string> = {}
    const resolveFrom = createRequire(file)
    for (const match of source.matchAll(LITERAL_REQUIRE)) {
      const specifier = match[2]
      if (isBuiltin(specifier)) continue
      const name = packageName(specifier)
      if (name !== undefined && UNPACKED_PACKAGES.has(name)) continue
      let target: string
      try { target = resolveFrom.resolve(specifier) } catch { continue } // left to Node at run time
      if (!/\.(?:c?js)$/.test(target) || (allowed !== undefined && !allowed.has(target))) continue
      requires[specifier] = target
      if (!found.has(target)) queue.push(target)
    }
    found.set(file, { file, source, requires })
  }
  const packed = [...found.values()].filter((m): m is Collected => m !== null)
  // a require() of a module left on disk goes to Node
  for (const m of packed) {
    for (const [specifier, target] of Object.entries(m.requires)) if (found.get(target) === null) Reflect.deleteProperty(m.requires, specifier)
  }
  return packed
}

const slashes = (path: string): string => path.split(sep).join('/')

/**
 * The source with every character outside ASCII written as a `\uXXXX` escape: the same program (in
 * comments, string and template literals, regular expressions and identifiers alike), and a file
 * Node decodes into V8's one-byte strings, several times faster to read and scan than a two-byte one.
 * Not for a source with Unicode white space (an escape is no white space between tokens): such a
 * module stays on disk (`hasUnicodeSpace`).
 */
export function asciiSource (source: string): string {
  return source.replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
}

/** The text of modules.js for these modules. */
export function packText (libDir: string, modules: readonly Collected[]): string {
  const index = new Map(modules.map((m, i) => [m.file, i]))
  let text = '// trellis module pack: the sources of trellis\' modules, see modules.json\n[\n'
  for (const m of modules) {
    const requires: Record<string, number> = {}
    for (const [specifier, target] of Object.entries(m.requires)) requires[specifier] = index.get(target) as number
    // a #! line is not JavaScript inside a function (Node's loader strips it too)
    const source = asciiSource(m.source.startsWith('#!') ? '//' + m.source : m.source)
    text += `[${JSON.stringify(slashes(relative(libDir, m.file)))}, ${JSON.stringify(requires)}, function (exports, require, module, __filename, __dirname) {${source}\n}],\n`
  }
  return text + ']\n'
}

export interface PackSummary { modules: number, bytes: number }

/**
 * Writes modules.js and modules.json into `dir` (which exists) for the trellis in `libDir`: every
 * module trellis may load, or `only` those (paths relative to libDir: the ones a start loaded).
 */
export function writeModulePack (dir: string, libDir: string, only?: readonly string[], roots: readonly string[] = PACK_ROOTS): PackSummary {
  const modules = collectModules(libDir, roots, only)
  const text = packText(libDir, modules)
  const files: PackedFile[] = modules.map((m) => {
    const stat = statSync(m.file)
    return { path: slashes(relative(libDir, m.file)), size: stat.size, mtimeMs: stat.mtimeMs }
  })
  const bytes = Buffer.byteLength(text, 'utf8')
  writeFile(dir, PACK_FILE, text)
  const index: PackIndex = { format: PACK_FORMAT, runtime: runtimeId(), bytes, files }
  writeFile(dir, PACK_INDEX_FILE, JSON.stringify(index))
  return { modules: modules.length, bytes }
}
