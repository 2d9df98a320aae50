// Builds trellis: TypeScript -> CommonJS in dist/lib (with declarations), then thin entry files in
// dist/entry so that `require` and `import` both load the ONE CommonJS implementation (no dual-package
// hazard: symbols, classes and instanceof checks are shared between the two module systems).
//
// `node scripts/build.mjs --if-stale` (`npm start`) builds only when dist/ is missing or older than a
// file it is built from (src/, tsconfig.json, package.json, this script): after `npm ci`, whose
// `prepare` built it, `npm start` does not build a second time.
import { execFileSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const require = createRequire(import.meta.url)
const stamp = join(root, 'dist', '.built')
/** The newest modification time among the files the build reads. */
function newestInput () {
  let newest = 0
  const visit = (path) => {
    const st = statSync(path)
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name))
    else newest = Math.max(newest, st.mtimeMs)
  }
  for (const path of ['src', 'tsconfig.json', 'package.json', join('scripts', 'build.mjs')]) visit(join(root, path))
  return newest
}
if (process.argv.includes('--if-stale') && existsSync(stamp) && statSync(stamp).mtimeMs >= newestInput()) {
  console.log('dist/ is up to date (built after the last change to src/): not rebuilt')
  process.exit(0)
}
rmSync(join(root, 'dist'), { recursive: true, force: true })
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit', cwd: root })

const entry = join(root, 'dist', 'entry')
mkdirSync(entry, { recursive: true })

function esmWrapper (cjsFile, names) {
  return `import lib from './${cjsFile}'\nexport default lib\n` +
    names.map((n) => `export const ${n} = lib.${n}\n`).join('')
}
// `trellis` (the Fastify 4 line) and `trellis/v5` (the Fastify 5 line): require('trellis') is the
// factory itself, with .default, .trellis and .fastify aliases.
// Installed under the name `fastify` (a package alias), `require('fastify')` gives the line the
// application chose (src/alias-line.ts); `require('trellis')` is always the Fastify 4 line.
// Each entry asks dist/lib/module-pack/load-pack.js for its implementation: from the module pack of
// a `trellis build` directory when TRELLIS_AOT_DIR names one (docs/deployment.md), else from disk.
// The second argument is the same module by a literal path: what a file tracer or bundler follows
// (Vercel's and Netlify's functions ship only the files an entry's requires reach).
const fromLib = (file) => `require('../lib/module-pack/load-pack.js').requireLib('${file}', () => require('../lib/${file}'))`
const chooseLine = {
  index: `require('../lib/alias-line.js').aliasedLine(require('node:path').join(__dirname, '..', '..')) === 5 ? ${fromLib('v5.js')} : ${fromLib('index.js')}`,
  v5: fromLib('v5.js')
}
for (const name of ['index', 'v5']) {
  writeFileSync(join(entry, `${name}.cjs`), `'use strict'
const lib = ${chooseLine[name]}
const factory = lib.default
module.exports = factory
for (const key of Object.keys(lib)) if (key !== '__esModule') module.exports[key] = lib[key]
module.exports.default = factory
module.exports.trellis = factory
module.exports.fastify = factory
`)
  const names = Object.keys(require(join(root, 'dist', 'lib', `${name}.js`))).filter((k) => k !== 'default' && k !== '__esModule')
  writeFileSync(join(entry, `${name}.mjs`), esmWrapper(`${name}.cjs`, [...new Set([...names, 'trellis', 'fastify'])]))
}

for (const name of ['plugin', 'plugin-v5', 'bearer-auth', 'openapi', 'otel']) {
  writeFileSync(join(entry, `${name}.cjs`), `'use strict'
const lib = ${fromLib(`${name}.js`)}
module.exports = lib.default
for (const key of Object.keys(lib)) if (key !== '__esModule') module.exports[key] = lib[key]
module.exports.default = lib.default
`)
  const names = Object.keys(require(join(root, 'dist', 'lib', `${name}.js`))).filter((k) => k !== 'default' && k !== '__esModule')
  writeFileSync(join(entry, `${name}.mjs`), esmWrapper(`${name}.cjs`, names))
}
/** The `export =` declaration file of dist/lib/NAME.d.ts: its default export's call signatures as
 * overloads of a function, merged with a namespace holding its other exports. */
function exportEqualsDeclaration (name) {
  const ts = require('typescript')
  const file = join(root, 'dist', 'lib', `${name}.d.ts`)
  const program = ts.createProgram([file], { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, noEmit: true, skipLibCheck: true, types: [] })
  const checker = program.getTypeChecker()
  const exported = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(file)))
  const target = (s) => s.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(s) : s
  // a value exported with `export type { X }` (node:net's Socket) is a type here
  const typeOnly = (s) => (s.declarations ?? []).some((d) => ts.isTypeOnlyImportOrExportDeclaration(d))
  const isValue = (s) => (target(s).flags & ts.SymbolFlags.Value) !== 0 && !typeOnly(s)
  const types = exported.filter((s) => !isValue(s)).map((s) => s.escapedName)
  const named = exported.filter((s) => s.escapedName !== 'default' && isValue(s))
  const values = named.filter((s) => !(target(s).flags & ts.SymbolFlags.Type)).map((s) => s.escapedName)
  // a class, or an interface merged with a value, is both: `let log: LogController` as well as
  // `new LogController()`; `export import` keeps every meaning, generics included
  const both = named.filter((s) => target(s).flags & ts.SymbolFlags.Type).map((s) => s.escapedName)
  const factory = checker.getTypeOfSymbol(target(exported.find((s) => s.escapedName === 'default')))
  const printer = ts.createPrinter({ removeComments: true })
  const flags = ts.NodeBuilderFlags.NoTruncation | ts.NodeBuilderFlags.IgnoreErrors
  const local = new Map()
  const overloads = factory.getCallSignatures().map((signature) => {
    // the return type may be a type alias the module does not export: copy its declaration
    const alias = signature.getReturnType().aliasSymbol
    if (alias && !types.includes(alias.escapedName)) local.set(alias.escapedName, alias.declarations[0].getText().replace(/^export /, ''))
    const node = checker.signatureToSignatureDeclaration(signature, ts.SyntaxKind.FunctionType, undefined, flags)
    return `declare function trellis${printer.printNode(ts.EmitHint.Unspecified, node, undefined).replace(/\) => /, '): ')}`
  })
  return `import type * as http from 'node:http'
import type * as https from 'node:https'
import type * as http2 from 'node:http2'
import lib = require('../lib/${name}.js')
import type { ${[...types, ...both].join(', ')} } from '../lib/${name}.js'
${[...local.values()].join('\n')}
${overloads.join('\n')}
declare namespace trellis {
  export type { ${types.join(', ')} }
${values.map((v) => `  export const ${v}: typeof lib.${v}`).join('\n')}
${both.map((c) => `  export import ${c} = lib.${c}`).join('\n')}
  const defaultExport: typeof lib.default
  export { defaultExport as default }
}
export = trellis
`
}
// Declarations for `import` (TypeScript with module node16/nodenext): an ES module importing the
// CommonJS declarations gets module.exports as its default, so re-declare the default explicitly.
for (const name of ['plugin', 'plugin-v5', 'bearer-auth', 'openapi', 'otel']) {
  writeFileSync(join(entry, `${name}.d.mts`), `import lib from '../lib/${name}.js'
declare const defaultExport: typeof lib.default
export default defaultExport
export * from '../lib/${name}.js'
`)
}
// `trellis` and `trellis/v5` (and the trellis-fastify5 package's `.`) each have ONE declaration file
// for `import` and `require`, in Fastify's own layout: a factory function merged with a namespace of the public types,
// `export =`. Every `declare module 'fastify'` (an ES-module application's, a CommonJS plugin
// declaration's) then augments the same module, and TypeScript merges them into one interface in
// any file order; two entry files (an `export *` .d.mts and the CommonJS .d.ts) each received a copy
// of the augmented interface, and which augmentations reached the application depended on the order
// of the files (docs/typescript.md).
writeFileSync(join(entry, 'index.d.ts'), exportEqualsDeclaration('index'))
writeFileSync(join(entry, 'v5.d.ts'), exportEqualsDeclaration('v5'))
// Fastify's `lib/` modules that packages require (`fastify/lib/reply`, `fastify/lib/symbols.js`, ...,
// package.json "./lib/*"): each is src/compat/fastify-lib's adapter of the line the alias follows
// (src/alias-line.ts), so `new Reply(...)` of @nestjs/platform-fastify 10 builds a Fastify 4 reply and
// that of Nest 11 a Fastify 5 one. [Fastify 4 line, Fastify 5 line] modules of dist/lib/compat/fastify-lib;
// Fastify 4 spells its file names in camelCase, Fastify 5 in kebab-case: both answer on both lines.
const fastifyLib = {
  symbols: ['symbols.js', 'symbols.js'],
  reply: ['reply-v4.js', 'reply.js'],
  request: ['request-v4.js', 'request.js'],
  errors: ['errors.js', 'errors-v5.js'],
  warnings: ['warnings.js', 'warnings.js'],
  logger: ['logger.js', 'logger.js'],
  initialConfigValidation: ['initialConfigValidation.js', 'initialConfigValidation.js'],
  'initial-config-validation': ['initialConfigValidation.js', 'initialConfigValidation.js'],
  'content-type': ['content-type.js', 'content-type.js'],
  'log-controller': ['log-controller.js', 'log-controller.js']
}
const libEntry = join(entry, 'lib')
mkdirSync(libEntry, { recursive: true })
for (const [name, [v4, v5]] of Object.entries(fastifyLib)) {
  const source = (file) => fromLib(`compat/fastify-lib/${file}`).replaceAll("'../lib/", "'../../lib/")
  const body = v4 === v5
    ? source(v4)
    : `require('../../lib/alias-line.js').aliasedLine(require('node:path').join(__dirname, '..', '..', '..')) === 5 ? ${source(v5)} : ${source(v4)}`
  writeFileSync(join(libEntry, `${name}.cjs`), `'use strict'\nmodule.exports = ${body}\n`)
  const names = new Set()
  for (const file of new Set([v4, v5])) {
    for (const key of Object.keys(require(join(root, 'dist', 'lib', 'compat', 'fastify-lib', file)))) {
      if (key !== 'default' && key !== '__esModule' && /^[A-Za-z_$][\w$]*$/.test(key)) names.add(key)
    }
  }
  writeFileSync(join(libEntry, `${name}.mjs`), esmWrapper(`${name}.cjs`, [...names]))
}
// Fastify's `types/` declaration files that packages import (`fastify/types/reply`, `…/hooks`,
// `…/route`: the declarations of @fastify/websocket 10 and 11 do), package.json "./types/*": types
// only, one folder per line (the v5 package, scripts/pack-v5.mjs, maps them to v5/), each file the
// line's declarations as a whole: every name a `types/*.d.ts` of Fastify exports is exported there.
// Fastify 4 spells `serverFactory`, Fastify 5 `server-factory`: both, on both lines.
const fastifyTypes = ['content-type-parser', 'context', 'errors', 'hooks', 'instance', 'logger', 'plugin', 'register', 'reply',
  'request', 'route', 'schema', 'serverFactory', 'server-factory', 'type-provider', 'utils']
for (const [line, main] of [['v4', 'index'], ['v5', 'v5']]) {
  const dir = join(root, 'dist', 'fastify-types', line)
  mkdirSync(dir, { recursive: true })
  for (const name of fastifyTypes) writeFileSync(join(dir, `${name}.d.ts`), `export * from '../../lib/${main}'\n`)
}
// The `trellis` command (package.json "bin"): a CommonJS file with the #! line, running src/cli.
const bin = join(root, 'dist', 'bin')
mkdirSync(bin, { recursive: true })
// `trellis start` turns Node's compile cache on first (src/module-pack/compile-cache.ts)
writeFileSync(join(bin, 'trellis.js'), "#!/usr/bin/env node\n'use strict'\nrequire('../lib/module-pack/compile-cache.js').enableForStart(process.argv.slice(2))\nrequire('../lib/module-pack/load-pack.js').requireLib('cli/bin.js')\n")
chmodSync(join(bin, 'trellis.js'), 0o755)
writeFileSync(stamp, `${new Date().toISOString()}\n`)
console.log('built dist/lib, dist/entry and dist/bin')
