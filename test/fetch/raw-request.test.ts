// request.raw and reply.raw on the fetch path, through app.fetch on Node (a Request made
// in-process), on both lines: the cases of ./raw-request.ts (Bun and Deno run them too:
// ../runtimes/runner.ts). The node:http path is not concerned: its raw objects are node's own.
import { test } from 'node:test'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'
import { RAW_CASES, type Send } from './raw-request'

const send: Send = (app, path, init) => app.fetch(new Request(`http://localhost${path}`, init))

for (const [line, trellis] of [['v4', trellisV4], ['v5', trellisV5]] as const) {
  for (const c of RAW_CASES) {
    test(`${line}: ${c.name}`, () => c.run(trellis as unknown as (opts?: object) => any, send))
  }
}
