/**
 * The plugins trellis ships (`trellis/bearer-auth`, `trellis/openapi`, `trellis/otel`) run on both
 * Fastify lines: each is typed as a plugin of each line, so `register` of a `trellis` (v4) or a
 * `trellis/v5` instance takes it and infers its options.
 */
import type { PluginOptions, TrellisPluginCallback } from './plugin'
import type { FastifyPluginCallback as FastifyPluginCallbackV5 } from './v5/plugin'

export type BothLinesPluginCallback<Options extends PluginOptions> = TrellisPluginCallback<Options> & FastifyPluginCallbackV5<Options>
