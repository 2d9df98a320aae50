/**
 * When the schema cache writes: once per batch of compilations, not once per entry.
 *
 * A directory store that has read or buffered anything asks to be flushed (`flushAtEndOfTask`); the
 * flush runs at the end of the current task (a microtask). ready() compiles every route in one
 * synchronous loop, so one boot writes one pack.
 */

let waiting: Array<() => void> = []
let scheduled = false

function runWaiting (): void {
  scheduled = false
  const flushes = waiting
  waiting = []
  for (const flush of flushes) {
    try { flush() } catch {} // the cache never makes a boot fail
  }
}

/** Runs `flush` once, at the end of this task. */
export function flushAtEndOfTask (flush: () => void): void {
  waiting.push(flush)
  if (!scheduled) {
    scheduled = true
    queueMicrotask(runWaiting)
  }
}
