/** The executable: the build writes dist/bin/trellis.js (with the #! line) that runs this. */
import { main } from './main'

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`trellis: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
  process.exit(1)
})
