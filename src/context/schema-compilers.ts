/**
 * Compiles a route's schemas at ready(): validators for the four request parts and serializers
 * for the responses, with the route's compilers, else its context's, else the defaults built for
 * the context's shared schemas (or the schema controller's factories).
 */
import type { BuiltCompiler, PluginContext } from './plugin-context'
import type { RouteContext, RouteSchemaCompilers } from '../lifecycle/route-context'
import type { RouteOptions } from '../routing/route-options'
import {
  buildValidatorCompilerFromFactory, compileRouteValidators, warnMissingParts, createDefaultValidatorCompiler, defaultSchemaErrorFormatter,
  type RouteSchema, type ValidatorCompiler, type ValidatorCompilerFactory
} from '../schema/validation'
import type { SerializerCompiler } from '../schema/serialization'

// the serializer generator is loaded when the first response schema is compiled: a server
// without response schemas never loads it (about 4 MB of RSS, measured in bench:boot)
function serialization (): typeof import('../schema/serialization') {
  return require('../schema/serialization') as typeof import('../schema/serialization')
}
import type { Rounding } from '../schema/serialization/runtime'

const REQUEST_PARTS = ['body', 'querystring', 'query', 'params', 'headers'] as const

export function compileRouteSchemas (context: PluginContext, route: RouteContext, opts: RouteOptions, method: string, url: string): void {
  route.schemaErrorFormatter = opts.schemaErrorFormatter ?? context.schemaErrorFormatter ?? defaultSchemaErrorFormatter
  route.schemaCompilers = routeSchemaCompilers(context, opts)
  const schema = opts.schema as RouteSchema | undefined
  if (schema === undefined || schema === null) return
  const { line, jsonShorthand } = context.app.options
  warnMissingParts(schema, method, url, line)
  // Fastify 5 compiles every part that is not undefined: `false` is a schema, `null` a build error
  if (REQUEST_PARTS.some((part) => schema[part] !== undefined && (line === 5 || schema[part] !== null))) {
    const compiler = (opts.validatorCompiler as ValidatorCompiler | undefined) ?? (context.routeCompilers.validator = defaultValidatorCompiler(context))
    const validators = route.validators = compileRouteValidators({ schema, method, url, compiler, jsonShorthand, line })
    route.validates = validators.params !== undefined || validators.body !== undefined || validators.bodyByContentType !== undefined ||
      validators.querystring !== undefined || validators.headers !== undefined
  }
  if (schema.response !== undefined && schema.response !== null) {
    const compiler = (opts.serializerCompiler as SerializerCompiler | undefined) ?? (context.routeCompilers.serializer = defaultSerializerCompiler(context))
    route.serializers = serialization().compileResponseSerializers({ responseSchemas: schema.response as Record<string, unknown>, method, url, compiler, line })
  }
}

/** The default compiler of `kind` the routes of `context`, or of its nearest ancestor that has routes, were built with. */
function nearestRouteCompiler<K extends 'validator' | 'serializer'> (context: PluginContext, kind: K): PluginContext['routeCompilers'][K] {
  for (let c: PluginContext | null = context; c !== null; c = c.parent) {
    const hit = c.routeCompilers[kind]
    if (hit !== undefined) return hit
  }
  return undefined
}

/**
 * A context's `validatorCompiler` as Fastify 4.3 reports it: the one set with
 * `setValidatorCompiler`, else the default one routes of this context (or of the nearest ancestor
 * that has one) were built with; undefined before routes are built.
 */
export function contextValidatorCompiler (context: PluginContext): ValidatorCompiler | undefined {
  return context.validatorCompiler ?? nearestRouteCompiler(context, 'validator')
}

/** Same as {@link contextValidatorCompiler}, for `serializerCompiler`. */
export function contextSerializerCompiler (context: PluginContext): SerializerCompiler | undefined {
  return context.serializerCompiler ?? nearestRouteCompiler(context, 'serializer')
}

/**
 * The compilers for schemas compiled at request time (`request.compileValidationSchema`,
 * `reply.compileSerializationSchema`): the route's `validatorCompiler` / `serializerCompiler`
 * option, else the context's, resolved on first use.
 */
export function routeSchemaCompilers (context: PluginContext, opts: Pick<RouteOptions, 'validatorCompiler' | 'serializerCompiler'>): RouteSchemaCompilers {
  const ownValidator = opts.validatorCompiler as ValidatorCompiler | undefined
  const ownSerializer = opts.serializerCompiler as SerializerCompiler | undefined
  return {
    validator: () => ownValidator ?? defaultValidatorCompiler(context),
    serializer: () => ownSerializer ?? defaultSerializerCompiler(context)
  }
}

/**
 * Like Fastify 4.3: a schema controller's factory (or the default compiler) builds one compiler per
 * context, again only if schemas were added since (or the factory changed), not one per route.
 */
function builtOnce<K extends keyof PluginContext['builtCompilers'], C> (context: PluginContext, slot: K, factory: unknown, count: number, build: () => C): C {
  const cached = context.builtCompilers[slot] as BuiltCompiler<C> | undefined
  if (cached !== undefined && cached.factory === factory && cached.count === count) return cached.compiler
  const compiler = build()
  ;(context.builtCompilers as Record<K, BuiltCompiler<C>>)[slot] = { factory, count, compiler }
  return compiler
}

export function defaultValidatorCompiler (context: PluginContext): ValidatorCompiler {
  if (context.validatorCompiler !== null) return context.validatorCompiler
  const shared = context.schemas.getAll()
  const factory = context.schemaController?.compilersFactory?.buildValidator as ValidatorCompilerFactory | undefined
  if (factory !== undefined && factory !== null) {
    // built with the ajv option normalized to { customOptions, plugins }
    return builtOnce(context, 'factoryValidator', factory, Object.keys(shared).length,
      () => buildValidatorCompilerFromFactory(factory, shared, context.app.options.ajv))
  }
  // one lookup per context and set of shared schemas, not one per route: the pool's key is the
  // content of every shared schema, which 1,000 routes would otherwise serialize 1,000 times
  return builtOnce(context, 'defaultValidator', createDefaultValidatorCompiler, Object.keys(shared).length,
    () => createDefaultValidatorCompiler(shared, context.app.options.ajv, context.app.options.schemaCache, context.app.options.aot))
}

export function defaultSerializerCompiler (context: PluginContext): SerializerCompiler {
  if (context.serializerCompiler !== null) return context.serializerCompiler
  const shared = context.schemas.getAll()
  const factory = context.schemaController?.compilersFactory?.buildSerializer
  if (factory !== undefined && factory !== null) {
    return builtOnce(context, 'factorySerializer', factory, Object.keys(shared).length,
      () => factory(shared, context.app.options.serializerOpts))
  }
  const { rounding } = (context.app.options.serializerOpts ?? {}) as { rounding?: Rounding }
  return serialization().createDefaultSerializerCompiler(shared, { rounding }, context.app.options.schemaCache, context.app.options.aot)
}
