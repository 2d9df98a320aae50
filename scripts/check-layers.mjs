// The layer rule of src/ (docs/architecture.md draws it): a file imports only from its own layer or
// a lower one, and no two files import each other by value, directly or through others.
//
//   node scripts/check-layers.mjs            value imports follow the layers; no value cycle
//   node scripts/check-layers.mjs --types    type imports follow the layers too
//   node scripts/check-layers.mjs --graph    print every edge (from -> to, value|type)
//
// Imports are read with TypeScript's parser: `import`, `export … from`, `import('…')` in types and
// `require('…')`. An import is a type import when it is written `import type`, when every name it
// brings is marked `type`, or when it is `import('…')` in a type position; anything else is a value
// import, whether or not the compiler would elide it, so the source says which it is.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const ts = require('typescript')
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const srcDir = join(root, 'src')

/** Lowest first. A path matches the first rule whose prefix it starts with. */
export const LAYERS = [
  { name: 'base', paths: ['base/', 'module-pack/'] },
  { name: 'schema', paths: ['schema/'] },
  { name: 'server', paths: ['server/'] },
  { name: 'transport', paths: ['transport/'] },
  { name: 'lifecycle', paths: ['lifecycle/'] },
  { name: 'routing', paths: ['routing/'] },
  { name: 'context', paths: ['context/'] },
  { name: 'instance', paths: ['instance/'] },
  { name: 'entries', paths: ['index.ts', 'v5.ts', 'alias-line.ts', 'plugin.ts', 'plugin-v5.ts', 'bearer-auth.ts', 'openapi.ts', 'openapi/', 'otel.ts', 'otel-api.ts', 'worker.ts', 'cli/', 'compat/', 'types/'] }
]

export function layerOf (file) {
  for (let i = 0; i < LAYERS.length; i++) {
    if (LAYERS[i].paths.some((p) => p.endsWith('/') ? file.startsWith(p) : file === p)) return i
  }
  return -1
}

function collect (dir, out) {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) collect(full, out)
    else if (name.endsWith('.ts')) out.push(relative(srcDir, full))
  }
  return out
}

function resolveImport (fromFile, spec) {
  if (!spec.startsWith('.')) return null
  const base = resolve(srcDir, dirname(fromFile), spec)
  for (const candidate of [base + '.ts', join(base, 'index.ts'), base]) {
    try {
      if (statSync(candidate).isFile()) return relative(srcDir, candidate)
    } catch {}
  }
  throw new Error(`${fromFile}: cannot resolve '${spec}'`)
}

/** Every import of one file: { spec, kind: 'value' | 'type', line }. */
export function importsOf (file) {
  const text = readFileSync(join(srcDir, file), 'utf8')
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found = []
  const add = (node, spec, kind) => found.push({ spec, kind, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1 })
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      let kind = 'value'
      if (clause !== undefined) {
        const named = clause.namedBindings
        const allNamedTypes = named !== undefined && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)
        if (clause.isTypeOnly || (clause.name === undefined && allNamedTypes)) kind = 'type'
      }
      add(node, node.moduleSpecifier.text, kind)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier !== undefined && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.exportClause
      const allTypes = clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly)
      add(node, node.moduleSpecifier.text, node.isTypeOnly || allTypes ? 'type' : 'value')
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node, node.argument.literal.text, 'type')
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]) &&
      ((ts.isIdentifier(node.expression) && node.expression.text === 'require') || node.expression.kind === ts.SyntaxKind.ImportKeyword)) {
      add(node, node.arguments[0].text, 'value')
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  return found
}

export function buildGraph () {
  const files = collect(srcDir, []).sort()
  const edges = []
  for (const file of files) {
    for (const imp of importsOf(file)) {
      const to = resolveImport(file, imp.spec)
      if (to !== null) edges.push({ from: file, to, kind: imp.kind, line: imp.line })
    }
  }
  return { files, edges }
}

/** Strongly connected components of the value-import graph with more than one file. */
function valueCycles (files, edges) {
  const next = new Map(files.map((f) => [f, []]))
  for (const e of edges) if (e.kind === 'value' && e.from !== e.to) next.get(e.from).push(e.to)
  let index = 0
  const idx = new Map(); const low = new Map(); const onStack = new Set(); const stack = []; const out = []
  const strong = (v) => {
    idx.set(v, index); low.set(v, index); index++
    stack.push(v); onStack.add(v)
    for (const w of next.get(v)) {
      if (!idx.has(w)) { strong(w); low.set(v, Math.min(low.get(v), low.get(w))) } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
    }
    if (low.get(v) === idx.get(v)) {
      const comp = []
      let w
      do { w = stack.pop(); onStack.delete(w); comp.push(w) } while (w !== v)
      if (comp.length > 1) out.push(comp.sort())
    }
  }
  for (const f of files) if (!idx.has(f)) strong(f)
  return out
}

export function check ({ types }) {
  const { files, edges } = buildGraph()
  const problems = []
  for (const f of files) if (layerOf(f) === -1) problems.push(`${f}: in no layer (add it to LAYERS in scripts/check-layers.mjs)`)
  for (const e of edges) {
    if (e.kind === 'type' && !types) continue
    const from = layerOf(e.from); const to = layerOf(e.to)
    if (from !== -1 && to !== -1 && to > from) {
      problems.push(`${e.from}:${e.line}: ${e.kind} import of ${e.to} points up (${LAYERS[from].name} -> ${LAYERS[to].name})`)
    }
  }
  for (const comp of valueCycles(files, edges)) problems.push(`value-import cycle between ${comp.join(', ')}`)
  return { files, edges, problems }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const types = process.argv.includes('--types')
  const { files, edges, problems } = check({ types })
  if (process.argv.includes('--graph')) {
    for (const e of edges) console.log(`${e.from} -> ${e.to} (${e.kind})`)
  }
  const values = edges.filter((e) => e.kind === 'value').length
  if (problems.length > 0) {
    for (const p of problems) console.error(p)
    console.error(`check-layers: ${problems.length} problem(s) in ${files.length} files`)
    process.exit(1)
  }
  console.log(`check-layers: ${files.length} files, ${values} value and ${edges.length - values} type imports follow the layers${types ? ' (types included)' : ''}`)
}
