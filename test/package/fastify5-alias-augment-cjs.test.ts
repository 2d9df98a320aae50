/**
 * The package alias on the Fastify 5 line: a CommonJS application's `declare module 'fastify'` and
 * @fastify/swagger's merge whatever order tsc reads the files in (augment-order.ts).
 */
import { augmentationOrderTests } from './augment-order'

augmentationOrderTests('fastify5-app', '@fastify/swagger', 'cjs')
