/**
 * When the schema cache writes: once per batch of compilations, not once per entry.
 *
 * A directory store that has read or buffered anything asks to be flushed (`whenWritesIdle`); the
 * flush runs at the end of the current task (a microtask), or, while `ready()` compiles its routes
 * (`holdSchemaCacheWrites`), when that compile phase ends, however many tasks it spans: one boot
 * writes one pack. No imports: `ready()` uses it whether or not the cache is on.
 */

let holds = 0
let waiting: Array<() => void> = []
let scheduled = false

function runWaiting (): void {
  if (holds > 0) return
  const flushes = waiting
  waiting = []
  for (const flush of flushes) {
    try { flush() } catch {} // the cache never makes a boot fail
  }
}

function onMicrotask (): void {
  scheduled = false
  runWaiting()
}

/** Runs `flush` once no compile phase holds writes back: at the end of this task, or at the last release. */
export function whenWritesIdle (flush: () => void): void {
  waiting.push(flush)
  if (!scheduled) {
    scheduled = true
    queueMicrotask(onMicrotask)
  }
}

/** Holds flushes back until the returned release is called (idempotent); the last release flushes. */
export function holdSchemaCacheWrites (): () => void {
  holds++
  let released = false
  return () => {
    if (released) return
    released = true
    holds--
    if (holds === 0 && waiting.length > 0) runWaiting()
  }
}
