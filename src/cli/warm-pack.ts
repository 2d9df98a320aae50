/**
 * The process `trellis build` starts after writing the module pack: it loads trellis FROM the pack
 * (TRELLIS_AOT_DIR is the build directory) with the modules `trellis start` loads, starts the
 * application as a deployment would (ready(), then close()), and then either prints the modules the
 * start evaluated (`list`: the build packs only those) or writes V8's code cache of the pack, which
 * then holds every function that start compiled (`cache`).
 * Arguments: <list|cache> <build dir> <application file> <1: use the application's options> <Fastify line: 4 or 5>.
 *
 * Only the pack's loader and two leaves that a start never loads are imported statically: anything
 * else of trellis loaded before the pack would come from disk.
 */
import { modulePackCodeCache, modulePackInUse, requireLib } from '../module-pack/load-pack'
import { PACK_CODE_CACHE_FILE } from '../module-pack/pack-format'
import { writeFileWhole } from '../base/write-file-whole'

async function warm (step: string, dir: string, file: string, useOptions: boolean, line: string): Promise<void> {
  // the CLI modules `trellis start` runs from (serving starts from the pack too)
  requireLib('cli/main.js')
  requireLib('cli/serve.js')
  // both lines' entries: an application's require('fastify') under the package alias loads one of them
  requireLib('index.js')
  requireLib('v5.js')
  const trellis = (requireLib(line === '5' ? 'v5.js' : 'index.js') as { default: (options: unknown) => any }).default
  const { loadApp } = requireLib('cli/load-app.js') as typeof import('./load-app')
  const pack = modulePackInUse()
  if (pack === undefined) throw new Error('the module pack was not loaded')
  const loaded = await loadApp(file)
  const app = trellis(useOptions && loaded.options !== undefined ? { ...loaded.options } : {})
  app.register(loaded.plugin)
  await app.ready()
  await app.close()
  if (step === 'list') {
    process.stdout.write(JSON.stringify({ evaluated: pack.evaluated }) + '\n')
    return
  }
  const cache = modulePackCodeCache() as Buffer
  writeFileWhole(dir, PACK_CODE_CACHE_FILE, cache)
  process.stdout.write(JSON.stringify({ codeCacheBytes: cache.length }) + '\n')
}

const [step, dir, file, useOptions, line] = process.argv.slice(2)
warm(step, dir, file, useOptions === '1', line).then(() => process.exit(0), (err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`)
  process.exit(1)
})
