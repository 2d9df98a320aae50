/**
 * The package alias on the Fastify 4 line: a ES-module application's `declare module 'fastify'` and
 * @fastify/sensible's merge whatever order tsc reads the files in (augment-order.ts).
 *
 * node-line: independent (tsc's verdict, whatever Node line runs the test: the older lines' pass of
 * .ci/run leaves this file out; Node 24 and 26 run it)
 */
import { augmentationOrderTests } from './augment-order'

augmentationOrderTests('fastify4-app', '@fastify/sensible', 'esm')
