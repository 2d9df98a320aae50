/**
 * The package alias on the Fastify 4 line: a CommonJS application's `declare module 'fastify'` and
 * @fastify/sensible's merge whatever order tsc reads the files in (augment-order.ts).
 */
import { augmentationOrderTests } from './augment-order'

augmentationOrderTests('fastify4-app', '@fastify/sensible', 'cjs')
