/**
 * The package alias on the Fastify 5 line: a ES-module application's `declare module 'fastify'` and
 * @fastify/swagger's merge whatever order tsc reads the files in (augment-order.ts).
 */
import { augmentationOrderTests } from './augment-order'

augmentationOrderTests('fastify5-app', '@fastify/swagger', 'esm')
