/**
 * The loader's one way of waiting for user code that may call `done` or return a promise:
 * `run(done)` starts it; the promise settles on the first `done(err?)`, and fails with
 * `onTimeout()` when nothing happened within `timeout` ms (0: no limit). The timer is not unref'd:
 * code that never finishes must fail ready(), not let the process exit silently.
 */
export function untilDone (timeout: number, onTimeout: () => Error, run: (done: (err?: unknown) => void) => void): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let settled = false
    let timer: NodeJS.Timeout | undefined
    const done = (err?: unknown): void => {
      if (settled) return
      settled = true
      if (timer !== undefined) clearTimeout(timer)
      if (err !== undefined && err !== null) reject(err)
      else resolve()
    }
    if (timeout > 0) timer = setTimeout(() => done(onTimeout()), timeout)
    try {
      run(done)
    } catch (err) {
      done(err)
    }
  })
}

/** The loader's own timeout error, kept as `cause`: AVV_ERR_READY_TIMEOUT for hooks, AVV_ERR_PLUGIN_EXEC_TIMEOUT for plugins (avvio 8.3+, Fastify 4.29). */
export function loaderTimeoutError (name: string, fn: unknown, code: 'AVV_ERR_READY_TIMEOUT' | 'AVV_ERR_PLUGIN_EXEC_TIMEOUT' = 'AVV_ERR_READY_TIMEOUT'): Error & { code: string; fn: unknown } {
  const err = new Error(`Plugin did not start in time: '${name}'. You may have forgotten to call 'done' function or to resolve a Promise`) as Error & { code: string; fn: unknown }
  err.code = code
  err.fn = fn
  return err
}
