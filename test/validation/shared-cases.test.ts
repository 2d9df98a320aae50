/**
 * The shared case list (cases.ts) run against: our default compiler; a hand-written Ajv compiler
 * with other options that answers in the { value } / { error } style; and Fastify 4.3's own
 * @fastify/ajv-compiler (parity of coercion and messages).
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { dirname } from 'node:path'
import {
  compileRouteValidators, createDefaultValidatorCompiler, defaultSchemaErrorFormatter, validateRequest,
  type ValidatorCompiler
} from '../../src/schema/validation/index'
import { cases, sharedSchemas } from './cases'

function customValueErrorCompiler (): ValidatorCompiler {
  const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, strict: false, allErrors: false, messages: true })
  addFormats(ajv)
  for (const s of Object.values(sharedSchemas)) ajv.addSchema(s)
  return ({ schema }) => {
    const check = ajv.compile(schema)
    return (data: unknown) => check(data) ? { value: data } : { error: check.errors }
  }
}

function fastify43Compiler (): ValidatorCompiler {
  const fastifyDir = dirname(require.resolve('fastify43/package.json'))
  const AjvCompiler = require(require.resolve('@fastify/ajv-compiler', { paths: [fastifyDir] }))
  return AjvCompiler()(sharedSchemas, { customOptions: {}, plugins: [] })
}

const compilers: Array<[string, () => ValidatorCompiler]> = [
  ['default compiler', () => createDefaultValidatorCompiler(sharedSchemas)],
  ['custom Ajv compiler returning { value } / { error }', customValueErrorCompiler],
  ['fastify 4.3 @fastify/ajv-compiler', fastify43Compiler]
]

for (const [label, make] of compilers) {
  describe(`shared cases: ${label}`, () => {
    const compiler = make()
    for (const c of cases) {
      it(c.name, () => {
        const request = structuredClone(c.request)
        const validators = compileRouteValidators({ schema: c.schema, method: c.method ?? 'POST', url: '/case', compiler })
        const error = validateRequest(validators, request, defaultSchemaErrorFormatter)
        if (c.fails !== undefined) {
          assert.ok(error, 'expected a validation error')
          assert.equal(error.statusCode, 400)
          assert.equal(error.validationContext, c.fails.context)
          assert.equal(error.message, c.fails.message)
          assert.ok(Array.isArray(error.validation))
        } else {
          assert.equal(error, null, error?.message)
          for (const [k, v] of Object.entries(c.after ?? {})) assert.deepEqual((request as unknown as Record<string, unknown>)[k], v, k)
        }
      })
    }
  })
}
