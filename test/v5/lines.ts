// The factories the v5-line tests run against: trellis/v5, and the real fastify@5 (a devDependency)
// so that every assertion is also checked against the behaviour it claims to follow.
import trellisV5 from '../../src/v5'
import trellisV4 from '../../src/index'

const fastify5 = require('fastify') as (opts?: object) => any

export const v5Targets: Array<[string, (opts?: object) => any]> = [
  ['trellis/v5', trellisV5 as unknown as (opts?: object) => any],
  ['fastify@5', fastify5]
]

export const v4 = trellisV4 as unknown as (opts?: object) => any
export const v5 = trellisV5 as unknown as (opts?: object) => any
