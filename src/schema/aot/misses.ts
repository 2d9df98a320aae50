/**
 * Schemas a start with a build had to compile (their key is not in the build: the schema, its
 * shared schemas or the options changed, or the route is new), collected while ready() builds the
 * routes and said in ONE warning naming them. Schemas compiled at request time
 * (`request.compileValidationSchema`) are never in a build and are not reported.
 */
let collecting: string[] | null = null

/** Records a schema compiled because the build lacks it (ignored outside route building). */
export function noteAotMiss (what: () => string): void {
  if (collecting !== null) collecting.push(what())
}

const LISTED = 10

/** The warning's text for these misses. */
export function aotMissMessage (misses: readonly string[]): string {
  const listed = misses.slice(0, LISTED).join(', ') + (misses.length > LISTED ? `, and ${misses.length - LISTED} more` : '')
  const what = misses.length === 1 ? '1 schema' : `${misses.length} schemas`
  return `${what} not in the build (${listed}): compiled at start; rerun trellis build`
}

/** Runs `build` (ready()'s route building); then warns once (TRLAOT001) when schemas were missing from the build. */
export function collectAotMisses (build: () => void): void {
  const outer = collecting
  const mine: string[] = []
  collecting = mine
  try {
    build()
  } finally {
    collecting = outer
  }
  if (mine.length > 0) process.emitWarning(aotMissMessage(mine), 'TrellisWarning', 'TRLAOT001')
}
