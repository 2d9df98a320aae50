#!/usr/bin/env node
// Runs fastify@5.12.8's own type tests (test/types/*.tst.ts of the registry tarball, which the
// runtime harness fetches with `npm pack` into conformance/.work/fastify-5.12.8/; never committed)
// against trellis's declarations, and counts per file the tstyche assertions that hold.
//
//   node conformance/types/run-5.mjs            check against conformance/types/ratchet-5.12.json (npm test)
//   node conformance/types/run-5.mjs --update   raise the ratchet to the current counts (never lower)
//   node conformance/types/run-5.mjs --table    print the per-file table
//   node conformance/types/run-5.mjs --verbose  also list every assertion that does not hold
//   --types=<path.d.ts>   the declarations to test (default: the `types` of package.json's "./v5"
//                         export when the build has them, else those of "."; run `npm run build` first)
//   --target=fastify      the same files against fastify@5.12.8's own declarations (the calibration)
//
// The files are copied to conformance/.types-work/v5.12/types with their imports mapped:
// '../../fastify.js', '../../types/*.js' and '@fastify/error' -> the declarations under test,
// 'tstyche' -> conformance/types/tstyche.d.ts. One TypeScript program compiles them all (strict).
// An assertion `expect(v)` / `expect<S>()` followed by `.type[.not].<matcher>` holds when no error is
// reported inside it and (S = v's type or the given S, T = the matcher's type argument or its
// argument's type):
//   toBe                  S and T are identical (the checker's identity relation)
//   toBeAssignableTo      S is assignable to T           toBeAssignableFrom   T is assignable to S
//   toHaveProperty(k)     S has a property k
//   toBeCallableWith(a)   rewritten to `expect(v(a))`: holds when the call compiles
// `.not` inverts the matcher; for `.not.toBeCallableWith` an error inside the rewritten call is what
// makes it hold. As in conformance/types/run.mjs, S = `any` does not satisfy toBe / toBeAssignableTo
// unless T is `any`, so an earlier error cannot make later assertions pass vacuously. Errors outside
// any assertion are counted per file ("other errors").
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'

import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { fileResult, finishRun, loadTypeScript } from './common.mjs'
import { SUITES } from '../suites.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const root = join(here, '..', '..')
const argv = process.argv.slice(2)
const args = new Set(argv)
const opt = (name) => { const a = argv.find((x) => x.startsWith(`--${name}=`)); return a ? a.slice(name.length + 3) : undefined }
const SUITE5 = SUITES['5.12']
const RATCHET = join(here, 'ratchet-5.12.json')
const PKG = SUITE5.src
const SUITE = join(PKG, 'test', 'types')
const DEPS_DIR = join(root, 'conformance', '.types-work', 'v5.12')
const WORK = join(DEPS_DIR, 'types')
// Type packages the test files import that the repository does not have at 5.12.8's ranges
// (devDependencies "typebox": "^1.0.81", "json-schema-to-ts": "^3.0.1"; newest in range when pinned),
// installed once into conformance/.types-work/v5.12/node_modules (found before the repository's).
// schema.tst.ts imports the two compilers: they resolved from the repository's own node_modules
// (hoisted by the fastify devDependency) before the suites' packages moved to test/suite-deps
const TYPE_DEPS = { 'json-schema-to-ts': '3.1.1', typebox: '1.3.36', '@fastify/ajv-compiler': '4.0.7', '@fastify/fast-json-stringify-compiler': '5.2.0' }
const AGAINST_FASTIFY = opt('target') === 'fastify'

/** The declarations under test: --types, else trellis/v5's when built, else trellis's. */
function targetTypes () {
  if (AGAINST_FASTIFY) return join(PKG, 'fastify.d.ts')
  if (opt('types')) return join(root, opt('types'))
  const exp = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports || {}
  for (const key of ['./v5', '.']) {
    const t = exp[key] && exp[key].require && exp[key].require.types
    if (t && existsSync(join(root, t))) return join(root, t)
  }
  return join(root, 'dist', 'lib', 'index.d.ts')
}
const TARGET = targetTypes()

function installTypeDeps () {
  const text = JSON.stringify({ name: 'trellis-types-5-scratch', private: true, dependencies: TYPE_DEPS }, null, 2) + '\n'
  const pkg = join(DEPS_DIR, 'package.json')
  if (existsSync(pkg) && readFileSync(pkg, 'utf8') === text && existsSync(join(DEPS_DIR, 'node_modules', '.installed'))) return
  mkdirSync(DEPS_DIR, { recursive: true })
  writeFileSync(pkg, text)
  const r = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--no-package-lock', '--ignore-scripts', '--loglevel=error'],
    { cwd: DEPS_DIR, stdio: ['ignore', 'inherit', 'inherit'], timeout: 5 * 60 * 1000 })
  if (r.status !== 0) throw new Error('npm install in conformance/.types-work/v5.12 failed (status ' + r.status + ')')
  writeFileSync(join(DEPS_DIR, 'node_modules', '.installed'), '')
}

function mapSpecifier (spec) {
  if (!AGAINST_FASTIFY) return 'trellis-under-test'
  // the copy fastify's own declarations use (the repository's @fastify/error is another major)
  if (spec === '@fastify/error') return join(PKG, 'node_modules', '@fastify', 'error').replace(/\\/g, '/')
  return join(PKG, spec.replace('../../', '')).replace(/\\/g, '/')
}

/** Rewrites `expect(X).type[.not].toBeCallableWith(ARGS)` to `expect((X)(ARGS)).type[.not].__callable()`. */
function rewriteCallable (ts, name, text) {
  const sf = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, true)
  const edits = []
  const visit = (node) => {
    if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === 'toBeCallableWith') {
      let e = node.expression.expression // expect(X).type or expect(X).type.not
      const not = ts.isPropertyAccessExpression(e) && e.name.text === 'not'
      if (not) e = e.expression
      const call = ts.isPropertyAccessExpression(e) && e.name.text === 'type' ? e.expression : undefined
      if (call && ts.isCallExpression(call) && call.arguments.length === 1) {
        const fn = call.arguments[0].getText(sf)
        const a = node.arguments.map((x) => x.getText(sf)).join(', ')
        edits.push([node.getStart(sf), node.end, `expect((${fn})(${a})).type${not ? '.not' : ''}.__callable()`])
        return
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(sf)
  let out = text
  for (const [s, e, r] of edits.sort((x, y) => y[0] - x[0])) out = out.slice(0, s) + r + out.slice(e)
  return out
}

function prepare (ts) {
  if (!existsSync(TARGET)) throw new Error(`${TARGET} is missing: run \`npm run build\` first`)
  if (SUITE5.fetch) SUITE5.fetch({ runtimeDeps: AGAINST_FASTIFY })
  installTypeDeps()
  rmSync(WORK, { recursive: true, force: true })
  mkdirSync(WORK, { recursive: true })
  const files = []
  for (const name of readdirSync(SUITE).sort()) {
    if (!/\.m?ts$/.test(name)) continue
    const text = readFileSync(join(SUITE, name), 'utf8')
      .replace(/(from\s+|import\(\s*|declare module\s+)'(\.\.\/\.\.\/fastify(?:\.js)?|\.\.\/\.\.\/types\/[\w-]+(?:\.js)?|@fastify\/error)'/g,
        (_, head, spec) => `${head}'${mapSpecifier(spec)}'`)
    writeFileSync(join(WORK, name), rewriteCallable(ts, name, text))
    if (name.endsWith('.tst.ts')) files.push(name)
  }
  cpSync(join(here, 'tstyche.d.ts'), join(WORK, 'tstyche.d.ts'))
  return files
}

const MATCHERS = new Set(['toBe', 'toBeAssignableTo', 'toBeAssignableFrom', 'toHaveProperty', '__callable'])

function check (ts, files) {
  const options = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    esModuleInterop: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(root, 'node_modules', '@types')],
    lib: ['lib.es2022.d.ts', 'lib.esnext.disposable.d.ts', 'lib.dom.d.ts'],
    baseUrl: WORK,
    paths: { 'trellis-under-test': [TARGET], tstyche: [join(WORK, 'tstyche.d.ts')] }
  }
  const program = ts.createProgram(files.map((f) => join(WORK, f)), options)
  const checker = program.getTypeChecker()
  const results = {}
  for (const name of files) {
    const sf = program.getSourceFile(join(WORK, name))
    const diagnostics = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)]
    const assertions = [] // { node: whole matcher call, expectCall, matcher, not }
    const visit = (node) => {
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && MATCHERS.has(node.expression.name.text)) {
        let e = node.expression.expression
        const not = ts.isPropertyAccessExpression(e) && e.name.text === 'not'
        if (not) e = e.expression
        if (ts.isPropertyAccessExpression(e) && e.name.text === 'type' && ts.isCallExpression(e.expression) &&
          ts.isIdentifier(e.expression.expression) && e.expression.expression.text === 'expect') {
          assertions.push({ node, expectCall: e.expression, matcher: node.expression.name.text, not })
          return
        }
      }
      ts.forEachChild(node, visit)
    }
    visit(sf)
    const inside = (d, node) => d.start !== undefined && d.start >= node.getStart(sf) && d.start < node.end
    const isAny = (t) => (t.flags & ts.TypeFlags.Any) !== 0
    let held = 0
    const failures = []
    for (const a of assertions) {
      const errorsInside = diagnostics.filter((d) => inside(d, a.node))
      let ok
      if (a.matcher === '__callable') ok = a.not ? errorsInside.length > 0 : errorsInside.length === 0
      else if (errorsInside.length > 0) ok = false
      else {
        const src = a.expectCall.typeArguments && a.expectCall.typeArguments.length
          ? checker.getTypeFromTypeNode(a.expectCall.typeArguments[0])
          : a.expectCall.arguments.length ? checker.getTypeAtLocation(a.expectCall.arguments[0]) : undefined
        if (a.matcher === 'toHaveProperty') {
          const k = a.node.arguments[0]
          const key = k && (ts.isStringLiteral(k) || ts.isNumericLiteral(k)) ? k.text : undefined
          const app = src !== undefined ? checker.getApparentType(src) : undefined
          // a property, or an index signature that admits the key (as tstyche counts it)
          const has = app !== undefined && key !== undefined &&
            (checker.getPropertyOfType(app, key) !== undefined || checker.getIndexInfosOfType(app).length > 0)
          ok = a.not ? !has : has
        } else {
          const tgt = a.node.typeArguments && a.node.typeArguments.length
            ? checker.getTypeFromTypeNode(a.node.typeArguments[0])
            : a.node.arguments.length ? checker.getTypeAtLocation(a.node.arguments[0]) : undefined
          let rel = false
          if (src !== undefined && tgt !== undefined) {
            if (a.matcher === 'toBe') rel = checker.isTypeIdenticalTo(src, tgt) && (isAny(tgt) || !isAny(src))
            else if (a.matcher === 'toBeAssignableTo') rel = checker.isTypeAssignableTo(src, tgt) && (isAny(tgt) || !isAny(src))
            else rel = checker.isTypeAssignableTo(tgt, src) && (isAny(src) || !isAny(tgt))
          }
          ok = a.not ? (src !== undefined && tgt !== undefined && !rel) : rel
        }
      }
      if (ok) held++
      else {
        const line = sf.getLineAndCharacterOfPosition(a.node.getStart(sf)).line + 1
        const why = errorsInside.length > 0 && !(a.matcher === '__callable' && !a.not)
          ? ts.flattenDiagnosticMessageText(errorsInside[0].messageText, ' ').slice(0, 160)
          : a.matcher === '__callable' ? (a.not ? 'the call compiles' : ts.flattenDiagnosticMessageText(errorsInside[0].messageText, ' ').slice(0, 160)) : 'types differ'
        failures.push(`${name}:${line} ${a.not ? 'not.' : ''}${a.matcher === '__callable' ? 'toBeCallableWith' : a.matcher}: ${why}`)
      }
    }
    results[name] = fileResult(ts, sf, name, assertions.map((a) => a.node), diagnostics, held, failures)
  }
  return results
}

const started = Date.now()
const ts = loadTypeScript()
const results = check(ts, prepare(ts))
const status = finishRun({
  results,
  args,
  ratchetFile: RATCHET,
  againstFastify: AGAINST_FASTIFY,
  label: 'types ratchet (5.12.8)',
  summary: `fastify@5.12.8 type tests against ${TARGET.slice(root.length + 1)}` + ` (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  description: 'Committed minimum of fastify@5.12.8 type-test assertions (test/types/*.tst.ts, tstyche) that hold against trellis\'s declarations, and the most errors allowed outside assertions, per file. Checked by `node conformance/types/run-5.mjs`; raise with `--update` (never lowers).',
  extra: { declarations: TARGET.slice(root.length + 1) }
})
process.exit(status)
