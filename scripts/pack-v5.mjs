// Packs `trellis-fastify5`: the same build as `trellis` (dist/, docs, README, CHANGELOG), under a
// package.json whose `.` is the Fastify 5 line, at run time AND in its type declarations.
//
// Why a second package: installed under the alias `"fastify": "npm:trellis-fastify5@…"`, every
// `'fastify'` of the program, the application's and the one the @fastify/* plugins' declarations
// import and augment, resolves to the v5 line's declarations. TypeScript picks declarations from the
// installed package.json alone (its `exports` conditions, `types`), never from the application's
// `"trellis": { "fastifyLine": 5 }`, so one package cannot give the v4 declarations to Fastify 4
// applications and the v5 ones to Fastify 5 applications (docs/typescript.md).
//
//   node scripts/pack-v5.mjs [--pack-destination <dir>]   (after `npm run build`; prints the tarball name)
import { execFileSync } from 'node:child_process'
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const at = process.argv.indexOf('--pack-destination')
const destination = resolve(at === -1 ? root : process.argv[at + 1])

/** The package.json of the v5 package, made from trellis's own: `.` and `./plugin` are the v5 line's. */
export function v5Manifest (manifest) {
  const exports = { ...manifest.exports }
  exports['.'] = manifest.exports['./v5']
  exports['./plugin'] = manifest.exports['./v5/plugin']
  // Fastify's types/ paths (types only): the v5 line's declarations
  const v5Types = (target) => ({ types: target.types.replace('/fastify-types/v4/', '/fastify-types/v5/') })
  exports['./types/*'] = v5Types(manifest.exports['./types/*'])
  exports['./types/*.js'] = v5Types(manifest.exports['./types/*.js'])
  const typesVersions = { '*': { 'types/*': manifest.typesVersions['*']['types/*'].map((p) => p.replace('/fastify-types/v4/', '/fastify-types/v5/')) } }
  const { scripts, devDependencies, overrides, scarfSettings, ...kept } = manifest
  return {
    ...kept,
    name: 'trellis-fastify5',
    description: manifest.description.replace('Fastify 4.3 programming interface', 'Fastify 5 programming interface (the Fastify 5 line of trellis)'),
    main: exports['.'].require.default,
    types: exports['.'].require.types,
    exports,
    typesVersions,
    // the line this package is, for tools that read it (its `.` is the v5 line whatever the application says)
    trellis: { fastifyLine: 5 }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  if (!existsSync(join(root, 'dist', 'lib', 'v5.d.ts'))) throw new Error('no dist/ here: run `npm run build` first')
  const tree = mkdtempSync(join(tmpdir(), 'trellis-fastify5-'))
  try {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    writeFileSync(join(tree, 'package.json'), JSON.stringify(v5Manifest(manifest), null, 2) + '\n')
    for (const file of [...manifest.files, 'README.md', 'LICENSE']) cpSync(join(root, file), join(tree, file), { recursive: true })
    const out = execFileSync('npm', ['pack', '--pack-destination', destination, '--no-audit', '--no-fund'], { cwd: tree, encoding: 'utf8' })
    process.stdout.write(out.trim().split('\n').pop() + '\n')
  } finally {
    rmSync(tree, { recursive: true, force: true })
  }
}
