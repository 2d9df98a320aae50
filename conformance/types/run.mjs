#!/usr/bin/env node
// Runs fastify@4.3.0's own type tests (test/types/*.test-d.ts of the registry package, installed as
// the devDependency `fastify43`; never committed) against trellis's generated declarations, and
// counts per file the assertions that hold (tsd's expectType, expectNotType, expectAssignable,
// expectNotAssignable, expectError, expectDeprecated, expectNotDeprecated).
//
//   node conformance/types/run.mjs            check against conformance/types/ratchet.json (npm test)
//   node conformance/types/run.mjs --update   raise the ratchet to the current counts (never lower)
//   node conformance/types/run.mjs --table    print the per-file table (docs/compatibility.md)
//   node conformance/types/run.mjs --verbose  also list every assertion that does not hold
//
// The files are copied to conformance/.types-work/types with their imports mapped: '../../fastify',
// '../../types/*' and '@fastify/error' (Fastify's error type) -> 'trellis' (dist/lib/index.d.ts,
// run `npm run build` first), 'tsd' -> conformance/types/tsd.d.ts. One TypeScript program compiles
// them all (strict, as tsd does). An assertion holds when:
//   expectType<T>(v)          no error inside the call, and v's type is identical to T (tsd's rule)
//   expectNotType<T>(v)       no error inside the call, and the types are not identical
//   expectAssignable<T>(v)    no error inside the call
//   expectNotAssignable<T>(v) v's type is not assignable to T
//   expectError(x)            an error is reported inside the call
//   expectDeprecated(x)       x resolves to a declaration marked @deprecated (NotDeprecated: not)
// Stricter than tsd in one way: where v's type is `any` and T is not, expectType/expectAssignable
// do not hold (an error earlier in the file must not make later assertions pass vacuously).
// Errors outside any assertion are counted per file too ("other errors"; tsd fails on them).
// The copy is not under conformance/.work: the runtime ratchet installs fastify@4.3.0's test
// dependencies into conformance/.work/node_modules (pino 8 among them), and module resolution from
// a copy there would find those before the repository's own packages, so a test file's result would
// depend on whether the runtime ratchet ran first. From conformance/.types-work resolution reaches
// only the repository's node_modules.
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire, Module } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')
const require = createRequire(import.meta.url)
const args = new Set(process.argv.slice(2))
const RATCHET = join(here, 'ratchet.json')
const SUITE = join(root, 'node_modules', 'fastify43', 'test', 'types')
const WORK = join(root, 'conformance', '.types-work', 'types')
// --target=fastify compiles the same files against fastify@4.3.0's own declarations: the calibration
// (what the real package scores with this checker), as conformance/baseline-fastify.json is at run time.
const AGAINST_FASTIFY = args.has('--target=fastify')
const TARGET = AGAINST_FASTIFY ? join(root, 'node_modules', 'fastify43', 'fastify.d.ts') : join(root, 'dist', 'lib', 'index.d.ts')
const ASSERTIONS = new Set(['expectType', 'expectNotType', 'expectAssignable', 'expectNotAssignable', 'expectError', 'expectDeprecated', 'expectNotDeprecated'])

/** TypeScript with the checker's identity relation exposed (tsd relies on it; it is internal). */
function loadTypeScript () {
  const file = require.resolve('typescript')
  const source = readFileSync(file, 'utf8')
  const hook = '\n    isTypeAssignableTo,\n'
  if (!source.includes(hook)) throw new Error('cannot expose isTypeIdenticalTo in this TypeScript version')
  const m = new Module(file)
  m.filename = file
  m.paths = Module._nodeModulePaths(dirname(file))
  m._compile(source.replace(hook, hook + '    isTypeIdenticalTo,\n'), file)
  return m.exports
}

function mapSpecifier (spec) {
  if (!AGAINST_FASTIFY) return 'trellis'
  if (spec === '@fastify/error') return spec
  return join(root, 'node_modules', 'fastify43', spec.replace('../../', '')).replace(/\\/g, '/')
}

function prepare () {
  if (!existsSync(TARGET)) throw new Error(`${TARGET} is missing: run \`npm run build\` first`)
  if (!existsSync(SUITE)) throw new Error('node_modules/fastify43/test/types is missing: run `npm ci`')
  rmSync(WORK, { recursive: true, force: true })
  mkdirSync(WORK, { recursive: true })
  const files = []
  for (const name of readdirSync(SUITE).sort()) {
    if (!name.endsWith('.ts')) continue
    // import ... from, import(...) and `declare module` (augmentation) specifiers
    const text = readFileSync(join(SUITE, name), 'utf8')
      .replace(/(from\s+|import\(\s*|declare module\s+)'(\.\.\/\.\.\/fastify|\.\.\/\.\.\/types\/[\w-]+|@fastify\/error)'/g, (_, head, spec) => `${head}'${mapSpecifier(spec)}'`)
    writeFileSync(join(WORK, name), text)
    if (name.endsWith('.test-d.ts')) files.push(name)
  }
  cpSync(join(here, 'tsd.d.ts'), join(WORK, 'tsd.d.ts'))
  return files
}

function check (ts, files) {
  const options = {
    strict: true,
    target: ts.ScriptTarget.ES2020,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
    lib: ['lib.es2020.d.ts', 'lib.dom.d.ts'],
    baseUrl: WORK,
    paths: { trellis: [TARGET], tsd: [join(WORK, 'tsd.d.ts')] }
  }
  const program = ts.createProgram(files.map((f) => join(WORK, f)), options)
  const checker = program.getTypeChecker()
  const results = {}
  for (const name of files) {
    const sf = program.getSourceFile(join(WORK, name))
    const diagnostics = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]
    const assertions = []
    const visit = (node) => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && ASSERTIONS.has(node.expression.text)) assertions.push(node)
      ts.forEachChild(node, visit)
    }
    visit(sf)
    const inside = (d, node) => d.start !== undefined && d.start >= node.getStart(sf) && d.start < node.end
    const isAny = (t) => (t.flags & ts.TypeFlags.Any) !== 0
    const deprecated = (expr) => {
      let decl
      const target = ts.isCallExpression(expr) ? expr : undefined
      if (target) decl = checker.getResolvedSignature(target)?.declaration
      if (!decl) decl = checker.getSymbolAtLocation(ts.isPropertyAccessExpression(expr) ? expr.name : expr)?.declarations?.[0]
      return decl !== undefined && ts.getJSDocDeprecatedTag(decl) !== undefined
    }
    let held = 0
    const failures = []
    for (const call of assertions) {
      const kind = call.expression.text
      const arg = call.arguments[0]
      const errorsInside = diagnostics.filter((d) => inside(d, call))
      let ok
      if (kind === 'expectError') ok = errorsInside.length > 0
      else if (errorsInside.length > 0 && kind !== 'expectNotAssignable') ok = false
      else if (kind === 'expectDeprecated') ok = deprecated(arg)
      else if (kind === 'expectNotDeprecated') ok = !deprecated(arg)
      else if (call.typeArguments === undefined) ok = kind === 'expectType' || kind === 'expectAssignable' // T inferred from the value
      else {
        const expected = checker.getTypeFromTypeNode(call.typeArguments[0])
        const actual = checker.getTypeAtLocation(arg)
        if (kind === 'expectType') ok = checker.isTypeIdenticalTo(actual, expected) && (isAny(expected) || !isAny(actual))
        else if (kind === 'expectNotType') ok = !checker.isTypeIdenticalTo(actual, expected)
        else if (kind === 'expectAssignable') ok = isAny(expected) || !isAny(actual)
        else ok = !checker.isTypeAssignableTo(actual, expected)
      }
      if (ok) held++
      else {
        const line = sf.getLineAndCharacterOfPosition(call.getStart(sf)).line + 1
        const why = errorsInside.length > 0 ? ts.flattenDiagnosticMessageText(errorsInside[0].messageText, ' ').slice(0, 160) : kind === 'expectError' ? 'no error reported' : 'types differ'
        failures.push(`${name}:${line} ${kind}: ${why}`)
      }
    }
    const other = diagnostics.filter((d) => !assertions.some((a) => inside(d, a)))
    results[name] = {
      assertions: assertions.length,
      held,
      otherErrors: other.length,
      failures,
      other: other.map((d) => `${name}:${d.start === undefined ? 0 : sf.getLineAndCharacterOfPosition(d.start).line + 1} ${ts.flattenDiagnosticMessageText(d.messageText, ' ').slice(0, 160)}`)
    }
  }
  return results
}

function table (results) {
  const rows = Object.entries(results)
  const total = rows.reduce((a, [, r]) => a + r.assertions, 0)
  const held = rows.reduce((a, [, r]) => a + r.held, 0)
  const lines = ['| file | hold / assertions | % | other errors |', '|---|---:|---:|---:|']
  for (const [name, r] of rows) lines.push(`| ${name} | ${r.held} / ${r.assertions} | ${(100 * r.held / r.assertions).toFixed(1)} | ${r.otherErrors} |`)
  lines.push(`| **total** | **${held} / ${total}** | **${(100 * held / total).toFixed(1)}** | ${rows.reduce((a, [, r]) => a + r.otherErrors, 0)} |`)
  return lines.join('\n')
}

const started = Date.now()
const ts = loadTypeScript()
const results = check(ts, prepare())
const seconds = ((Date.now() - started) / 1000).toFixed(1)
if (args.has('--table')) console.log(table(results))
if (args.has('--verbose')) for (const r of Object.values(results)) for (const line of [...r.failures, ...r.other.map((o) => 'other error ' + o)]) console.log(line)
const ratchet = !AGAINST_FASTIFY && existsSync(RATCHET) ? JSON.parse(readFileSync(RATCHET, 'utf8')) : { files: {} }
let failed = false
for (const [name, r] of Object.entries(results)) {
  const min = ratchet.files[name]
  if (min === undefined) continue
  if (r.held < min.held) { failed = true; console.error(`types ratchet: ${name} holds ${r.held} assertions, committed ${min.held}`) }
  if (r.otherErrors > min.maxOtherErrors) { failed = true; console.error(`types ratchet: ${name} has ${r.otherErrors} errors outside assertions, committed at most ${min.maxOtherErrors}`) }
}
const total = Object.values(results).reduce((a, r) => a + r.assertions, 0)
const held = Object.values(results).reduce((a, r) => a + r.held, 0)
if (args.has('--update') && !AGAINST_FASTIFY) {
  const files = {}
  for (const [name, r] of Object.entries(results)) {
    const old = ratchet.files[name] ?? { held: 0, maxOtherErrors: Infinity }
    files[name] = { held: Math.max(old.held, r.held), assertions: r.assertions, maxOtherErrors: Math.min(old.maxOtherErrors, r.otherErrors) }
  }
  writeFileSync(RATCHET, JSON.stringify({
    description: 'Committed minimum of fastify@4.3.0 type-test assertions (test/types/*.test-d.ts) that hold against trellis\'s declarations, and the most errors allowed outside assertions, per file. Checked by `node conformance/types/run.mjs`; raise with `--update` (never lowers).',
    files
  }, null, 2) + '\n')
}
console.error(`fastify@4.3.0 type tests: ${held} / ${total} assertions hold (${(100 * held / total).toFixed(1)}%), ${Object.keys(results).length} files, ${seconds} s`)
process.exit(failed ? 1 : 0)
