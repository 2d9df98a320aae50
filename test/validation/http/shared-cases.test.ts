/**
 * The shared server-level case list (cases.ts), run through the server (inject) against:
 *  - the default compiler (shared schemas with addSchema),
 *  - a custom compiler set with setValidatorCompiler ({ value } / { error }, own Ajv with the shared schemas),
 *  - the same custom compiler given as the route option `validatorCompiler`,
 *  - a schemaController.compilersFactory.buildValidator that builds an Ajv from the external schemas.
 * Every case checks the response (200 with what the handler saw, or the exact 400 payload) and,
 * for failures, the error's validationContext (seen from an onError hook).
 */
import { describe, it, before, after } from 'node:test'
import assert from 'node:assert/strict'
import Ajv from 'ajv'
import addFormats from 'ajv-formats'
import { httpCases } from './cases'
import { trellis, sharedSchemas, valueErrorCompiler, echo, pick, type App } from './helpers'

interface Setup { label: string, build: () => { app: App, routeCompiler?: unknown } }

const setups: Setup[] = [
  {
    label: 'default compiler',
    build: () => {
      const app = trellis()
      for (const s of sharedSchemas) app.addSchema(s)
      return { app }
    }
  },
  {
    label: 'custom compiler (setValidatorCompiler, { value } / { error })',
    build: () => {
      const app = trellis()
      for (const s of sharedSchemas) app.addSchema(s) // does not reach the custom compiler; harmless
      app.setValidatorCompiler(valueErrorCompiler())
      return { app }
    }
  },
  {
    label: 'custom compiler as the route option validatorCompiler',
    build: () => ({ app: trellis(), routeCompiler: valueErrorCompiler() })
  },
  {
    label: 'schemaController.compilersFactory.buildValidator',
    build: () => {
      const app = trellis({
        schemaController: {
          compilersFactory: {
            buildValidator (externalSchemas: Record<string, Record<string, unknown>>, ajvOptions: { customOptions: Record<string, unknown> }) {
              const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, strict: false, ...ajvOptions.customOptions })
              addFormats(ajv)
              for (const s of Object.values(externalSchemas)) ajv.addSchema(s)
              return ({ schema }: { schema: unknown }) => ajv.compile(schema as object)
            }
          }
        }
      })
      for (const s of sharedSchemas) app.addSchema(s)
      return { app }
    }
  }
]

for (const setup of setups) {
  describe(`server-level shared cases: ${setup.label}`, () => {
    const { app, routeCompiler } = setup.build()
    let lastContext: string | undefined
    app.addHook('onError', (_req: unknown, _reply: unknown, error: any, done: () => void) => {
      lastContext = error.validationContext
      done()
    })
    httpCases.forEach((c, i) => {
      const prefix = `/k${i}`
      app.route({
        method: (c.route.method ?? 'POST') as never,
        url: prefix + (c.route.url ?? '/c'),
        schema: c.route.schema as never,
        ...(routeCompiler !== undefined ? { validatorCompiler: routeCompiler as never } : {}),
        handler: echo
      } as never)
    })
    before(async () => { await app.ready() })
    after(async () => { await app.close() })

    httpCases.forEach((c, i) => {
      it(c.name, async () => {
        lastContext = undefined
        const res = await app.inject({
          method: (c.request.method ?? 'POST') as never,
          url: `/k${i}` + (c.request.url ?? c.route.url ?? '/c'),
          payload: c.request.payload as never,
          headers: c.request.headers
        })
        if (c.fails !== undefined) {
          assert.equal(res.statusCode, 400, res.body)
          assert.deepEqual(res.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: c.fails.message })
          assert.equal(lastContext, c.fails.context)
        } else {
          assert.equal(res.statusCode, 200, res.body)
          const seen = res.json()
          for (const [part, expected] of Object.entries(c.sees ?? {})) {
            if (part === 'headers') assert.deepEqual(pick(seen.headers, expected as Record<string, unknown>), expected, part)
            else assert.deepEqual(seen[part], expected, part)
          }
        }
      })
    })
  })
}
