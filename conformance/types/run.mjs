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
// '../../types/*' and '@fastify/error' (Fastify's error type) -> 'trellis' (package.json's `.` declarations,
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

import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fileResult, finishRun, loadTypeScript } from './common.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')
const args = new Set(process.argv.slice(2))
const RATCHET = join(here, 'ratchet.json')
const SUITE = join(root, 'node_modules', 'fastify43', 'test', 'types')
const WORK = join(root, 'conformance', '.types-work', 'types')
// --target=fastify compiles the same files against fastify@4.3.0's own declarations: the calibration
// (what the real package scores with this checker), as conformance/baseline-fastify.json is at run time.
const AGAINST_FASTIFY = args.has('--target=fastify')
// the declarations users get: package.json's `.` (one file for `import` and `require`)
const TARGET = AGAINST_FASTIFY ? join(root, 'node_modules', 'fastify43', 'fastify.d.ts') : join(root, JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports['.'].require.types)
const ASSERTIONS = new Set(['expectType', 'expectNotType', 'expectAssignable', 'expectNotAssignable', 'expectError', 'expectDeprecated', 'expectNotDeprecated'])

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
    results[name] = fileResult(ts, sf, name, assertions, diagnostics, held, failures)
  }
  return results
}

const started = Date.now()
const ts = loadTypeScript()
const results = check(ts, prepare())
const status = finishRun({
  results,
  args,
  ratchetFile: RATCHET,
  againstFastify: AGAINST_FASTIFY,
  label: 'types ratchet',
  summary: 'fastify@4.3.0 type tests' + ` (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  description: 'Committed minimum of fastify@4.3.0 type-test assertions (test/types/*.test-d.ts) that hold against trellis\'s declarations, and the most errors allowed outside assertions, per file. Checked by `node conformance/types/run.mjs`; raise with `--update` (never lowers).'
})
process.exit(status)
