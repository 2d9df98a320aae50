/**
 * Fastify's warnings module (`fastify/lib/warnings.js`) on trellis: each FSTDEP* / FSTWRN* /
 * FSTSEC* export is the warning trellis itself emits (src/base/warnings.ts, Fastify 5's from
 * src/base/warnings-v5.ts; FSTDEP022 is 4.29's, whose suite reads it), so resetting `.emitted` or
 * reading `.code` acts on the real thing. process-warning's `spyWarning` reaches a warning through
 * two symbols private to process-warning (its emitter and its spy slot): each export maps those,
 * recognised by their descriptions, onto the warning's own slots, so a spy sees what trellis emits.
 */
import { kWarningEmit, kWarningSpy, warnings, type Warning } from '../../base/warnings'
import { v5Warnings } from '../../base/warnings-v5'

const SLOTS: Record<string, symbol> = { 'process-warning.fn': kWarningEmit, 'process-warning.spyData': kWarningSpy }

const slot = (key: string | symbol): string | symbol =>
  typeof key === 'symbol' && key.description !== undefined ? SLOTS[key.description] ?? key : key

function spyable (warning: Warning): Warning {
  return new Proxy(warning, {
    get: (target, key) => Reflect.get(target, slot(key)),
    set: (target, key, value) => Reflect.set(target, slot(key), value),
    has: (target, key) => Reflect.has(target, slot(key))
  })
}

const all: Record<string, Warning> = {}
for (const [key, warning] of Object.entries({ ...v5Warnings, ...warnings })) all[key] = spyable(warning)

export = all
