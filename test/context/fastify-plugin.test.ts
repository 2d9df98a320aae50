import { describe, test } from 'node:test'
import realFp from 'fastify-plugin'
import trellis from '../../src/index'
import fp from '../../src/plugin'
import { wrapperCases, type Wrapper } from './wrapper-cases'

// The same cases for trellis/plugin and for the real fastify-plugin@4 wrapping plugins loaded by trellis.
const wrappers: Array<[string, Wrapper]> = [
  ['trellis/plugin', fp as Wrapper],
  ['fastify-plugin@4', realFp as unknown as Wrapper]
]

for (const [label, wrap] of wrappers) {
  describe(`plugin wrapper: ${label}`, () => {
    for (const c of wrapperCases) {
      test(c.name, () => c.run(trellis as any, wrap))
    }
  })
}
