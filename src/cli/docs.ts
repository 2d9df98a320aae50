/**
 * Where the documentation the user has lives: the package ships README.md and docs/ (package.json
 * "files"), so `trellis --help` names the folder of the installed copy, found from this file up to the
 * package.json of trellis (also when the package is installed under the alias `fastify`).
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

function isTrellisRoot (dir: string): boolean {
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name?: unknown }).name === 'trellis'
  } catch {
    return false
  }
}

/** The docs/ folder of the trellis package this file belongs to, or undefined when it is not there. */
export function docsDir (from: string = __dirname): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    if (isTrellisRoot(dir)) return existsSync(join(dir, 'docs')) ? join(dir, 'docs') : undefined
    if (dirname(dir) === dir) return undefined
  }
}

/** The help's line about documentation. */
export function docsLine (): string {
  const docs = docsDir()
  return docs === undefined
    ? 'Documentation: README.md and docs/ of the trellis package'
    : `Documentation: ${join(dirname(docs), 'README.md')} and ${docs}/ (deployment.md: trellis start)`
}
