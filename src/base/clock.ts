/**
 * The request path's clock. Node defines the global `performance` as a getter with a receiver
 * check, run on every read of the global; this reads it once, so `perf.now()` is one call.
 */
export const perf: typeof performance = performance
