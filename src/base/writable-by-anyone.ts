/**
 * Whether anyone may write a file or directory: code trellis runs from a build directory (a
 * `trellis build` module, the module pack) is refused when it is, as trusted as `node_modules`.
 * Never on Windows (no such mode bit). A missing path throws, unless `missingOk`: then false.
 */
import { statSync } from 'node:fs'

export function writableByAnyone (path: string, missingOk = false): boolean {
  if (process.platform === 'win32') return false
  const stat = statSync(path, { throwIfNoEntry: !missingOk })
  return stat !== undefined && (stat.mode & 0o002) !== 0
}
