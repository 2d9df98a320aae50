/**
 * Fastify-4 plugins whose whole job is a client for an external database or broker. The suite does
 * not start those servers (only redis-server, see redis.test.ts), so they are not installed and
 * these entries are reported as skipped with the reason, never as passing. docs/compatibility.md
 * ("Ecosystem plugins") lists them the same way. On the Fastify 5 line: their Fastify-5 majors.
 */
import { test } from 'node:test'
import { byLine } from './target'

const notRun: Array<[string, string]> = [
  [`@fastify/postgres ${byLine('5.2.2', '6.1.0')}`, 'needs a PostgreSQL server'],
  [`@fastify/mysql ${byLine('4.3.0', '5.0.3')}`, 'needs a MySQL server'],
  [`@fastify/mongodb ${byLine('8.0.0', '10.0.1')}`, 'needs a MongoDB server'],
  [`@fastify/elasticsearch ${byLine('3.1.0', '4.0.4')}`, 'needs an Elasticsearch server']
]

for (const [plugin, reason] of notRun) {
  test(`${plugin} on ${byLine('trellis', 'trellis/v5')}`, { skip: `${reason}; the suite starts none (not installed, not counted as passing)` }, () => {})
}
