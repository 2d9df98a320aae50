/**
 * Fastify 4.29's warnings module (`fastify/lib/warnings.js`) on trellis: each FSTDEP* / FSTWRN*
 * export is the warning trellis itself emits (src/base/warnings.ts), so resetting `.emitted` or reading
 * `.code` acts on the real thing.
 */
import { warnings } from '../../base/warnings'

export = warnings
