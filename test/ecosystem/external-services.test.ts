/**
 * Fastify-4 plugins whose whole job is a client for an external database or broker. The suite does
 * not start those servers (only redis-server, see redis.test.ts), so they are not installed and
 * these entries are reported as skipped with the reason, never as passing. docs/compatibility.md
 * ("Ecosystem plugins") lists them the same way.
 */
import { test } from 'node:test'

const notRun: Array<[string, string]> = [
  ['@fastify/postgres 5.2.2', 'needs a PostgreSQL server'],
  ['@fastify/mysql 4.3.0', 'needs a MySQL server'],
  ['@fastify/mongodb 8.0.0', 'needs a MongoDB server'],
  ['@fastify/elasticsearch 3.1.0', 'needs an Elasticsearch server']
]

for (const [plugin, reason] of notRun) {
  test(`${plugin} on trellis`, { skip: `${reason}; the suite starts none (not installed, not counted as passing)` }, () => {})
}
