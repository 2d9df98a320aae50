/**
 * Bundles a Worker with esbuild (an optional peer dependency of the `trellis` command: only
 * `trellis build --target worker` loads it). One ES module comes out: the application, trellis and
 * their dependencies; node built-ins stay imports (`node:*`, which workerd provides under
 * `nodejs_compat`), and CommonJS `require()` of a built-in is answered from those imports by a
 * `require` the module defines at its top. Before writing, the import graph is checked: a module
 * of the application (not trellis) that imports a built-in Workers cannot serve (a disk file
 * system, sockets, processes) fails the build with its name and the chain that imports it.
 */
import { builtinModules } from 'node:module'
import { readFileSync, statSync } from 'node:fs'
import { dirname, relative, resolve, sep } from 'node:path'
import { UsageError } from './args'
import { WORKERS } from '../base/worker-target'

/** Built-ins a Worker has no real one of: workerd's node:fs is an in-memory file system, and a Worker opens no listening socket or process. */
export const UNAVAILABLE_BUILTINS: Record<string, string> = {
  fs: 'no disk: workerd\'s node:fs is an in-memory file system (/bundle, /tmp, /dev)',
  'fs/promises': 'no disk: workerd\'s node:fs is an in-memory file system (/bundle, /tmp, /dev)',
  net: 'no sockets of its own: requests reach a Worker through its fetch handler',
  tls: 'no sockets of its own: requests reach a Worker through its fetch handler',
  http2: 'no HTTP/2 server: Cloudflare speaks HTTP/2 to clients in front of the Worker',
  dgram: 'no UDP sockets',
  child_process: 'no processes',
  cluster: 'no processes'
}

interface Esbuild {
  build: (options: Record<string, unknown>) => Promise<{ metafile?: Metafile, outputFiles?: Array<{ text: string }> }>
}
interface Metafile { inputs: Record<string, { imports: Array<{ path: string, kind: string, external?: boolean }> }> }

/** esbuild, or a UsageError saying how to install it. */
export function loadEsbuild (): Esbuild {
  try {
    return require('esbuild') as Esbuild
  } catch {
    throw new UsageError('trellis build --target worker bundles the Worker with esbuild, an optional peer dependency of trellis: install it beside the application (npm install --save-dev esbuild) and run the build again')
  }
}

/** An entry's `require('../lib/module-pack/load-pack.js').requireLib('<file>', () => require('../lib/<file>'))` (scripts/build.mjs). */
const ENTRY_REQUIRE = /require\('((?:\.\.\/)+)lib\/module-pack\/load-pack\.js'\)\.requireLib\('([^']+)', \(\) => require\('[^']+'\)\)/g

const builtins = new Set(builtinModules.filter((m) => !m.startsWith('_')))
const builtinName = (spec: string): string | undefined => {
  const name = spec.startsWith('node:') ? spec.slice(5) : spec
  return builtins.has(name) ? name : undefined
}

export interface BundleInput {
  /** the generated entry module */
  entry: string
  /** the generated module injected as the global `Function` (./worker-codegen.ts) */
  inject: string
  /** the application module (the import graph is checked from it) */
  app: string
  /** trellis' package folder: the files of its dist/ and src/ and what they import are trellis', not the application's */
  trellisRoot: string
  outfile: string
}

function checkImports (metafile: Metafile, cwd: string, input: BundleInput): void {
  const abs = (p: string): string => resolve(cwd, p)
  const own = [resolve(input.trellisRoot, 'dist') + sep, resolve(input.trellisRoot, 'src') + sep]
  const byPath = new Map(Object.entries(metafile.inputs).map(([p, v]) => [abs(p), v]))
  const start = resolve(input.app)
  const from = new Map<string, string | null>([[start, null]])
  const queue = [start]
  const problems: string[] = []
  const chain = (file: string): string => {
    const out: string[] = []
    for (let f: string | null = file; f !== null; f = from.get(f) ?? null) out.unshift(relative(cwd, f))
    return out.join(' -> ')
  }
  while (queue.length > 0) {
    const file = queue.shift() as string
    for (const imp of byPath.get(file)?.imports ?? []) {
      if (imp.external === true) {
        const name = builtinName(imp.path)
        if (name !== undefined && Object.hasOwn(UNAVAILABLE_BUILTINS, name)) problems.push(`${chain(file)} imports node:${name} (${WORKERS} have ${UNAVAILABLE_BUILTINS[name]})`)
        continue
      }
      const next = abs(imp.path)
      if (own.some((dir) => next.startsWith(dir)) || from.has(next)) continue
      from.set(next, file)
      queue.push(next)
    }
  }
  if (problems.length > 0) {
    throw new UsageError(`the application cannot run on ${WORKERS}:\n  ${problems.join('\n  ')}\nremove the plugin or module from the Worker's application (docs/runtimes.md, Cloudflare Workers)`)
  }
}

/** The module's top: each built-in that CommonJS code requires, imported, and the `require` that answers from them. */
function requireBanner (required: ReadonlySet<string>): string {
  const names = [...required].sort()
  const lines = names.map((name, i) => `import * as __trellis_node_${i} from 'node:${name}';`)
  lines.push(`const __trellis_node = { ${names.map((name, i) => `${JSON.stringify(name)}: __trellis_node_${i}`).join(', ')} };`)
  lines.push(`const require = (id) => { const m = __trellis_node[id.startsWith('node:') ? id.slice(5) : id]; if (m === undefined) throw new Error('require(' + JSON.stringify(id) + ') is not available on ${WORKERS}'); return m.default ?? m };`)
  lines.push(`require.resolve = (id) => { throw new Error('require.resolve(' + JSON.stringify(id) + ') is not available on ${WORKERS}: a Worker has no module files') };`)
  return lines.join('\n')
}

/** Writes the Worker module; returns its size in bytes. */
export async function bundleWorker (input: BundleInput): Promise<number> {
  const esbuild = loadEsbuild()
  const cwd = process.cwd()
  const required = new Set<string>()
  const entryDir = resolve(input.trellisRoot, 'dist', 'entry') + sep
  const plugin = {
    name: 'trellis-worker',
    setup (build: {
      onResolve: (o: { filter: RegExp }, cb: (args: { path: string, kind: string }) => unknown) => void
      onLoad: (o: { filter: RegExp }, cb: (args: { path: string }) => unknown) => void
    }) {
      // trellis' entries ask module-pack/load-pack.ts for their implementation (for `trellis
      // build`'s module pack): the bundle requires the module itself, without the pack's loader
      build.onLoad({ filter: /\.cjs$/ }, (args) => {
        if (!args.path.startsWith(entryDir)) return undefined
        const text = readFileSync(args.path, 'utf8')
        return { contents: text.replace(ENTRY_REQUIRE, "require('$1lib/$2')"), loader: 'js', resolveDir: dirname(args.path) }
      })
      build.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
        const name = builtinName(args.path)
        if (name === undefined) return undefined
        if (args.kind === 'require-call') required.add(name)
        return { path: `node:${name}`, external: true }
      })
    }
  }
  const common = {
    entryPoints: [input.entry],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    mainFields: ['main', 'module'],
    conditions: ['workerd', 'worker', 'node'],
    target: 'es2022',
    inject: [input.inject],
    plugins: [plugin],
    logLevel: 'silent',
    legalComments: 'none',
    absWorkingDir: cwd,
    // CommonJS modules that name their own folder (none of it is read on a Worker)
    define: { __dirname: '"/bundle"', __filename: '"/bundle/worker.mjs"' }
  }
  // a first pass finds the built-ins CommonJS code requires and the import graph
  const first = await esbuild.build({ ...common, write: false, metafile: true, outfile: input.outfile })
  checkImports(first.metafile as Metafile, cwd, input)
  const second = await esbuild.build({ ...common, write: true, metafile: true, outfile: input.outfile, banner: { js: requireBanner(required) } })
  void second
  return statSync(input.outfile).size
}
