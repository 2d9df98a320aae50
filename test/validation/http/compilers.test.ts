/**
 * Validator compilers through the server: setValidatorCompiler (encapsulated), the route option
 * validatorCompiler, the compiler's input, a per-httpPart configuration, setSchemaController's
 * compilersFactory, and the ajv factory options (customOptions, plugins) end to end.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { trellis, echo, baselineAjv } from './helpers'

const mergePatch = require('ajv-merge-patch')
const ajvErrors = require('ajv-errors')

describe('setValidatorCompiler / validatorCompiler', () => {
  it('the compiler receives { schema, method, url, httpPart } for each declared part', async () => {
    const app = trellis()
    const inputs: Array<Record<string, unknown>> = []
    const schemas = { body: { type: 'object' }, querystring: { type: 'object' }, params: { type: 'object' }, headers: { type: 'object' } }
    app.register(async (child) => {
      child.setValidatorCompiler((input: any) => { inputs.push(input); return () => true })
      child.post('/items/:id', { schema: schemas }, echo)
    }, { prefix: '/api' })
    await app.ready()
    const byPart = Object.fromEntries(inputs.map((i) => [i.httpPart, i]))
    assert.deepEqual(Object.keys(byPart).sort(), ['body', 'headers', 'params', 'querystring'])
    for (const part of ['body', 'querystring', 'params', 'headers'] as const) {
      assert.equal(byPart[part].method, 'POST')
      assert.equal(byPart[part].url, '/api/items/:id')
      assert.deepEqual(byPart[part].schema, schemas[part])
    }
  })

  it('is encapsulated: the child\'s compiler is used by its routes and descendants, not the parent\'s or siblings\'', async () => {
    const app = trellis()
    const used: string[] = []
    const tagging = (tag: string) => ({ httpPart }: any) => () => { used.push(`${tag}:${httpPart}`); return true }
    app.get('/root', { schema: { querystring: { n: { type: 'integer' } } } }, echo)
    app.register(async (child) => {
      child.setValidatorCompiler(tagging('child'))
      child.get('/child', { schema: { querystring: { n: { type: 'integer' } } } }, echo)
      child.register(async (grandchild) => {
        grandchild.get('/grandchild', { schema: { querystring: { n: { type: 'integer' } } } }, echo)
      })
    })
    app.register(async (sibling) => {
      sibling.get('/sibling', { schema: { querystring: { n: { type: 'integer' } } } }, echo)
    })
    assert.equal((await app.inject({ url: '/root?n=x' })).statusCode, 400)
    assert.equal((await app.inject({ url: '/sibling?n=x' })).statusCode, 400)
    assert.equal((await app.inject({ url: '/child?n=x' })).statusCode, 200)
    assert.equal((await app.inject({ url: '/grandchild?n=x' })).statusCode, 200)
    assert.deepEqual(used, ['child:querystring', 'child:querystring'])
  })

  it('the route option validatorCompiler wins over the instance compiler', async () => {
    const app = trellis()
    app.setValidatorCompiler(() => () => ({ error: new Error('instance compiler') }))
    app.get('/i', { schema: { querystring: { n: { type: 'integer' } } } }, echo)
    app.get('/r', { schema: { querystring: { n: { type: 'integer' } } }, validatorCompiler: () => () => ({ value: { n: 'route' } }) }, echo)
    const i = await app.inject({ url: '/i' })
    assert.deepEqual(i.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'instance compiler' })
    assert.deepEqual((await app.inject({ url: '/r' })).json().query, { n: 'route' })
  })

  it('a compiler may configure body differently: no coercion for body, coercion for querystring', async () => {
    const strict = baselineAjv({ coerceTypes: false })
    const coercing = baselineAjv()
    const app = trellis()
    app.setValidatorCompiler(({ schema, httpPart }: any) => (httpPart === 'body' ? strict : coercing).compile(schema))
    app.post('/', { schema: { body: { n: { type: 'integer' } }, querystring: { n: { type: 'integer' } } } }, echo)
    const strictBody = await app.inject({ method: 'POST', url: '/?n=1', payload: { n: '1' } })
    assert.deepEqual(strictBody.json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body/n must be integer' })
    const ok = await app.inject({ method: 'POST', url: '/?n=2', payload: { n: 1 } })
    assert.deepEqual(ok.json().query, { n: 2 })
    assert.deepEqual(ok.json().body, { n: 1 })
  })

  it('addSchema does not reach a custom compiler: its own schemas must be added to it', async () => {
    const app = trellis()
    const ajv = baselineAjv()
    ajv.addSchema({ $id: 'mine', type: 'object', properties: { v: { type: 'integer' } } })
    app.addSchema({ $id: 'instance-only', type: 'object' })
    app.setValidatorCompiler(({ schema }: any) => ajv.compile(schema))
    app.post('/mine', { schema: { body: { $ref: 'mine#' } } }, echo)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/mine', payload: { v: '3' } })).json().body, { v: 3 })
    const app2 = trellis()
    app2.addSchema({ $id: 'instance-only', type: 'object' })
    app2.setValidatorCompiler(({ schema }: any) => baselineAjv().compile(schema))
    app2.post('/x', { schema: { body: { $ref: 'instance-only#' } } }, echo)
    await assert.rejects(app2.ready(), { code: 'FST_ERR_SCH_VALIDATION_BUILD' })
    assert.deepEqual(Object.keys(app2.getSchemas()), ['instance-only'])
  })

  it('a validator returning false reports its .errors (Ajv convention) with the default formatter', async () => {
    const app = trellis()
    app.setValidatorCompiler(() => {
      const fn: any = (data: any) => { fn.errors = [{ instancePath: '/q', message: 'is odd' }]; return Number(data.q) % 2 === 0 }
      return fn
    })
    app.get('/', { schema: { querystring: { q: {} } } }, echo)
    assert.deepEqual((await app.inject({ url: '/?q=3' })).json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'querystring/q is odd' })
    assert.equal((await app.inject({ url: '/?q=4' })).statusCode, 200)
  })
})

describe('setSchemaController compilersFactory', () => {
  it('buildValidator gets the visible shared schemas and the ajv option with both keys', async () => {
    const calls: Array<{ ids: string[], ajv: unknown }> = []
    const app = trellis()
    app.addSchema({ $id: 'a', type: 'object', properties: { x: { type: 'integer' } } })
    app.register(async (child) => {
      child.setSchemaController({
        compilersFactory: {
          buildValidator (externalSchemas: Record<string, any>, ajvOptions: unknown) {
            calls.push({ ids: Object.keys(externalSchemas), ajv: ajvOptions })
            const ajv = baselineAjv()
            for (const s of Object.values(externalSchemas)) ajv.addSchema(s)
            return ({ schema }: any) => ajv.compile(schema)
          }
        }
      })
      child.addSchema({ $id: 'b', type: 'object', properties: { y: { type: 'integer' } } })
      child.post('/c', { schema: { body: { type: 'object', properties: { a: { $ref: 'a#' }, b: { $ref: 'b#' } } } } }, echo)
      child.get('/c2', { schema: { querystring: { $ref: 'b#' } } }, echo)
    })
    app.post('/root', { schema: { body: { $ref: 'a#' } } }, echo)
    const res = await app.inject({ method: 'POST', url: '/c', payload: { a: { x: '1' }, b: { y: '2' } } })
    assert.deepEqual(res.json().body, { a: { x: 1 }, b: { y: 2 } })
    assert.equal(calls.length, 1, 'one compiler for the context, not one per route')
    assert.deepEqual(calls[0], { ids: ['a', 'b'], ajv: { customOptions: {}, plugins: [] } })
    // the root keeps the default compiler
    assert.deepEqual((await app.inject({ method: 'POST', url: '/root', payload: { x: '5' } })).json().body, { x: 5 })
  })

  it('the factory receives the server\'s ajv options', async () => {
    let seen: any
    const plugins = [mergePatch]
    const app = trellis({
      ajv: { customOptions: { coerceTypes: false }, plugins },
      schemaController: {
        compilersFactory: {
          buildValidator (_schemas: unknown, ajvOptions: any) {
            seen = ajvOptions
            return ({ schema }: any) => baselineAjv(ajvOptions.customOptions).compile(schema)
          }
        }
      }
    } as never)
    app.post('/', { schema: { body: { n: { type: 'integer' } } } }, echo)
    assert.equal((await app.inject({ method: 'POST', url: '/', payload: { n: '1' } })).statusCode, 400)
    assert.deepEqual(seen.customOptions, { coerceTypes: false })
    assert.equal(seen.plugins[0], mergePatch)
  })

  it('a factory the child\'s setSchemaController leaves out is inherited from the parent; each factory builds once per context', async () => {
    const calls = { rootValidator: 0, rootSerializer: 0, childValidator: 0 }
    const app = trellis({
      schemaController: {
        compilersFactory: {
          buildValidator () { calls.rootValidator++; return ({ schema }: any) => baselineAjv().compile(schema) },
          buildSerializer () { calls.rootSerializer++; return () => (data: any) => JSON.stringify({ from: 'root', ...data }) }
        }
      }
    } as never)
    app.register(async (child) => {
      child.setSchemaController({
        compilersFactory: {
          buildValidator () { calls.childValidator++; return ({ schema }: any) => baselineAjv({ coerceTypes: false }).compile(schema) }
        }
      })
      const schema = { querystring: { n: { type: 'integer' } }, response: { '2xx': { type: 'object' }, '4xx': { type: 'object' } } }
      child.get('/a', { schema }, async () => ({ ok: 1 }))
      child.get('/b', { schema }, async () => ({ ok: 2 }))
    })
    assert.deepEqual((await app.inject('/a')).json(), { from: 'root', ok: 1 })
    assert.equal((await app.inject('/b?n=1')).statusCode, 400, 'the child\'s validator does not coerce')
    assert.deepEqual(calls, { rootValidator: 0, rootSerializer: 1, childValidator: 1 })
  })
})

describe('ajv factory options end to end', () => {
  it('customOptions: coerceTypes false', async () => {
    const app = trellis({ ajv: { customOptions: { coerceTypes: false } } })
    app.get('/', { schema: { querystring: { n: { type: 'integer' } } } }, echo)
    assert.deepEqual((await app.inject({ url: '/?n=1' })).json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'querystring/n must be integer' })
  })

  it('customOptions: removeAdditional "all" drops undeclared properties without additionalProperties: false', async () => {
    const app = trellis({ ajv: { customOptions: { removeAdditional: 'all' } } })
    app.post('/', { schema: { body: { a: { type: 'string' } } } }, echo)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { a: 'x', b: 1 } })).json().body, { a: 'x' })
    const base = trellis()
    base.post('/', { schema: { body: { a: { type: 'string' } } } }, echo)
    assert.deepEqual((await base.inject({ method: 'POST', url: '/', payload: { a: 'x', b: 1 } })).json().body, { a: 'x', b: 1 })
  })

  it('customOptions: useDefaults false', async () => {
    const app = trellis({ ajv: { customOptions: { useDefaults: false } } })
    app.get('/', { schema: { querystring: { p: { type: 'integer', default: 1 } } } }, echo)
    assert.deepEqual((await app.inject({ url: '/' })).json().query, {})
  })

  it('customOptions: allErrors true reports every error', async () => {
    const app = trellis({ ajv: { customOptions: { allErrors: true } } })
    app.post('/', { schema: { body: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a', 'b'] } } }, echo)
    const res = await app.inject({ method: 'POST', url: '/', payload: { a: 'x' } })
    assert.equal(res.json().message, "body must have required property 'b', body/a must be integer")
  })

  it('plugins: ajv-merge-patch $merge with a shared schema', async () => {
    const app = trellis({ ajv: { plugins: [mergePatch] } })
    app.addSchema({ $id: 'base', type: 'object', properties: { a: { type: 'string' } }, required: ['a'] })
    app.post('/', {
      schema: { body: { $merge: { source: { $ref: 'base#' }, with: { properties: { b: { type: 'integer' } }, required: ['b'] } } } }
    }, echo)
    const bad = await app.inject({ method: 'POST', url: '/', payload: { a: 'x' } })
    assert.equal(bad.statusCode, 400)
    assert.match(bad.json().message, /^body must have required property 'b'/)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: { a: 'x', b: '2' } })).json().body, { a: 'x', b: 2 })
  })

  it('plugins: ajv-merge-patch $patch', async () => {
    const app = trellis({ ajv: { plugins: [mergePatch] } })
    app.get('/', {
      schema: { querystring: { $patch: { source: { type: 'object', properties: { q: { type: 'integer' } } }, with: [{ op: 'add', path: '/required', value: ['q'] }] } } }
    }, echo)
    assert.match((await app.inject({ url: '/' })).json().message, /^querystring must have required property 'q'/)
    assert.deepEqual((await app.inject({ url: '/?q=3' })).json().query, { q: 3 })
  })

  it('without the plugin, $merge fails the build at ready()', async () => {
    const app = trellis()
    app.post('/', { schema: { body: { $merge: { source: {}, with: {} } } } }, echo)
    await assert.rejects(app.ready(), { code: 'FST_ERR_SCH_VALIDATION_BUILD' })
  })

  it('plugins: ajv-errors custom messages with allErrors true, and [plugin, options] form', async () => {
    const schema = {
      body: {
        type: 'object',
        properties: { name: { type: 'string', errorMessage: { type: 'name must be a string!' } } },
        required: ['name'],
        errorMessage: { required: { name: 'name is required!' } }
      }
    }
    const app = trellis({ ajv: { customOptions: { allErrors: true }, plugins: [ajvErrors] } })
    app.post('/', { schema }, echo)
    assert.deepEqual((await app.inject({ method: 'POST', url: '/', payload: {} })).json(), { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: 'body name is required!' })
    assert.equal((await app.inject({ method: 'POST', url: '/', payload: { name: {} } })).json().message, 'body/name name must be a string!')

    // [plugin, options]: keepErrors keeps Ajv's own error next to the custom one
    const withOpts = trellis({ ajv: { customOptions: { allErrors: true }, plugins: [[ajvErrors, { keepErrors: true }]] } })
    withOpts.post('/', { schema: { body: { type: 'object', properties: { a: { type: 'integer', errorMessage: 'bad a' } } } } }, echo)
    const res = await withOpts.inject({ method: 'POST', url: '/', payload: { a: 'x' } })
    assert.equal(res.statusCode, 400)
    assert.equal(res.json().message, 'body/a must be integer, body/a bad a')
  })

  it('plugins and customOptions are per server: another server is unaffected', async () => {
    const withErrors = trellis({ ajv: { customOptions: { allErrors: true }, plugins: [ajvErrors] } })
    const plain = trellis()
    const schema = { body: { type: 'object', required: ['n'], errorMessage: { required: { n: 'n please' } } } }
    withErrors.post('/', { schema }, echo)
    plain.post('/', { schema }, echo)
    assert.equal((await withErrors.inject({ method: 'POST', url: '/', payload: {} })).json().message, 'body n please')
    // without ajv-errors the keyword is unknown (strict) or ignored: either way no custom message
    const res = await plain.inject({ method: 'POST', url: '/', payload: {} }).catch((e: Error) => e)
    if (!(res instanceof Error) && res.statusCode === 400) assert.notEqual(res.json().message, 'body n please')
  })
})
