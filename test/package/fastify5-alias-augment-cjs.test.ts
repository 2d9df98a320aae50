/**
 * The package alias on the Fastify 5 line: a CommonJS application's `declare module 'fastify'` and
 * @fastify/swagger's merge whatever order tsc reads the files in (augment-order.ts).
 *
 * node-line: independent (tsc's verdict, whatever Node line runs the test: the older lines' pass of
 * .ci/run leaves this file out; Node 24 and 26 run it)
 */
import { augmentationOrderTests } from './augment-order'

augmentationOrderTests('fastify5-app', '@fastify/swagger', 'cjs')
