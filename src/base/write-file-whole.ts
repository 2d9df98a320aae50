/**
 * Writes a file of a build directory through a temporary name in the same directory and a rename:
 * a process reading the directory meanwhile finds the old file or the new one, never a part.
 */
import { renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export function writeFileWhole (dir: string, name: string, data: string | Buffer): void {
  const tmp = join(dir, `${name}.${process.pid}.tmp`)
  writeFileSync(tmp, data)
  renameSync(tmp, join(dir, name))
}
