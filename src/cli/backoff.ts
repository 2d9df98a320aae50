/**
 * Restart delays for workers that die: doubling from `base` to `max`, reset once a worker has stayed
 * up for `stableMs` (a crash loop slows down; a rare crash restarts quickly).
 */
interface Backoff { next: (uptimeMs: number) => number }

export function createBackoff (base = 200, max = 10000, stableMs = 10000): Backoff {
  let failures = 0
  return {
    next (uptimeMs: number): number {
      failures = uptimeMs >= stableMs ? 1 : failures + 1
      return Math.min(max, base * 2 ** (failures - 1))
    }
  }
}
