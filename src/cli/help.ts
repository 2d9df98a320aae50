/** The text of `trellis help` and `trellis start --help`. */
import { FLAGS } from './args'
import { docsLine } from './docs'

export function usage (): string {
  return `Usage: trellis <command>

Commands:
  start [options] <app-file>   serve an application module (a plugin)
  check [--line 4|5] <app-file>
                               list what the application uses that changes in Fastify 5
  build [--out <dir>] [--line 4|5] <app-file>
                               compile every validator and serializer ahead of time, for a fast start
  help                         show this help
  version                      print trellis's version

Each command runs the application on its Fastify line: --line, else TRELLIS_FASTIFY_LINE, else
"trellis": { "fastifyLine": 5 } in its package.json, else the installed package's line
(trellis-fastify5 is 5), else 4.
Run "trellis start --help" for the start options.
${docsLine()}
`
}

export function startUsage (): string {
  const lines = FLAGS.map((f) => {
    const names = `${f.short !== undefined ? `-${f.short}, ` : '    '}--${f.flag}${f.kind === 'string' ? ' <value>' : ''}`
    const env = f.env.length > 0 ? `  [env: ${f.env.join(' or ')}]` : ''
    return `  ${names.padEnd(32)}${f.help}${env}`
  })
  return `Usage: trellis start [options] <app-file>
${docsLine()}

<app-file> is a plugin: module.exports = async function (app, opts) { ... } (CommonJS) or
export default async function (app, opts) { ... } (ES module). TypeScript needs your loader, e.g.
NODE_OPTIONS="--import tsx" trellis start app.ts

Options (a flag wins over its environment variable):
${lines.join('\n')}

Signals: SIGTERM or SIGINT closes gracefully (in-flight requests are answered, new ones get 503,
onClose hooks run) within --close-timeout; a second signal exits at once.
`
}

export function checkUsage (): string {
  return `Usage: trellis check [--line 4|5] <app-file>
${docsLine()}

Loads <app-file> (the module \`trellis start\` takes) on its Fastify line (--line, else
TRELLIS_FASTIFY_LINE, else "trellis": { "fastifyLine": 5 } in its package.json, else the
installed package's line, else 4), runs
ready(), and lists what it uses that changes or disappears in Fastify 5 (trellis/v5), each with
where it was found and what to write instead: warnings its loading raises, its routes, plugins and
options, and the text of the source files it loaded. "bridged" items are what the Fastify 4 bridge
carries on Fastify 5 (a plugin declaring fastify '4.x', and the Fastify 4 usages inside it that
the bridge answers). Under the package alias it also names every package that loads a nested copy
of the real fastify. An application that does not load is reported with the reason, with the
findings of its source files. Rerun it at every step of a move from Fastify 4 to 5.
Exit status 1 when something breaks on Fastify 5 (bridged and changed items alone: 0).
`
}

export function buildUsage (): string {
  return `Usage: trellis build [options] <app-file>
${docsLine()}

Loads <app-file> (the module \`trellis start\` takes), runs ready(), and writes every validator and
serializer its routes compiled into a directory: one module, V8's code cache of it and a manifest.
A process started with TRELLIS_AOT_DIR=<dir> (or the server option aot: { dir }) reads them instead
of compiling; a schema that changed since is compiled at start, with a warning naming its route.
Build with the Node version and flags the server runs with. An invalid schema fails the build.

With --target worker it writes a Cloudflare Worker instead: <dir>/worker.mjs, one ES module
(export default { fetch }) holding the application, trellis and everything compiled at start,
plus workerd.capnp and wrangler.toml to serve it. It bundles with esbuild (npm install -D esbuild).

Options:
  -d, --out <dir>    where to write the build (default ./trellis-build; ./trellis-worker
                     with --target worker)
      --target <t>   node (default) or worker (a Cloudflare Worker)
  -o, --options      use the server options the module exports, as trellis start --options
      --line <4|5>   the Fastify line (default: TRELLIS_FASTIFY_LINE, else package.json
                     "trellis": { "fastifyLine" }, else the installed package's line,
                     else 4); the build records it, and a start
                     on the other line does not use the build (TRLAOT002)
  -h, --help         show this help
`
}
