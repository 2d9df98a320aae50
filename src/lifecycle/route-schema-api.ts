/**
 * Fastify 4.3's request-time schema API, on a route:
 *  - `request.getValidationFunction(part | schema)`, `request.compileValidationSchema(schema, part?)`,
 *    `request.validateInput(input, schema | part, part?)`;
 *  - `reply.getSerializationFunction(status | schema)`, `reply.compileSerializationSchema(schema, status?)`,
 *    `reply.serializeInput(input, schema | status, status?)`.
 *
 * Schemas compiled here use the route's compiler (its `validatorCompiler` / `serializerCompiler`
 * option, else its context's) and are cached per route by schema object identity, so a handler
 * that compiles the same schema object on every request compiles it once.
 */
import { errorCodes } from '../base/errors'
import { kRouteSerializeFns, kRouteValidateFns, type RouteContext } from './route-context'
import type { HttpPart, ValidatorFn } from '../schema/validation'
import type { SerializerFn } from '../schema/serialization'

const PART_NAMES: Record<string, HttpPart> = {
  body: 'body', headers: 'headers', params: 'params', querystring: 'querystring', query: 'querystring'
}

function partOf (name: unknown): HttpPart | undefined {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(PART_NAMES, name) ? PART_NAMES[name] : undefined
}

function isSchemaObject (value: unknown): value is object {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

function compilers (route: RouteContext): NonNullable<RouteContext['schemaCompilers']> {
  if (route.schemaCompilers === null) throw new Error('this route has no schema compilers')
  return route.schemaCompilers
}

/** The function compiled for `schema` on this route, built once and kept in the route's cache. */
function compileOnce<F> (route: RouteContext, key: typeof kRouteValidateFns | typeof kRouteSerializeFns, schema: object, build: () => F): F {
  const routeCaches = route as unknown as Record<symbol, WeakMap<object, F> | null>
  let cache = routeCaches[key]
  const cached = cache?.get(schema)
  if (cached !== undefined) return cached
  const fn = build()
  if (cache === null || cache === undefined) cache = routeCaches[key] = new WeakMap()
  cache.set(schema, fn)
  return fn
}

/** The route's validator of a request part (by name), or the function compiled earlier for a schema object. */
export function getValidationFunction (route: RouteContext, partOrSchema: unknown): ValidatorFn | undefined {
  if (typeof partOrSchema === 'string') {
    const part = partOf(partOrSchema)
    return part === undefined ? undefined : route.validators[part]
  }
  if (isSchemaObject(partOrSchema)) return route[kRouteValidateFns]?.get(partOrSchema)
  return undefined
}

/** Compiles `schema` with the route's validator compiler (once per schema object and route). */
export function compileValidationSchema (route: RouteContext, schema: object, httpPart: string | null, method: string, url: string): ValidatorFn {
  return compileOnce(route, kRouteValidateFns, schema, () => compilers(route).validator()({ schema, method, url, httpPart: httpPart as HttpPart }))
}

/**
 * Validates `input` with the route's validator for a part (`validateInput(input, 'body')`), else
 * with `schema` compiled for the route. Returns what the validator returns.
 * Throws FST_ERR_REQ_INVALID_VALIDATION_INVOCATION when there is neither.
 */
export function validateInput (route: RouteContext, input: unknown, schema: unknown, httpPart: unknown, method: string, url: string): unknown {
  const partName = typeof schema === 'string' ? schema : httpPart
  const part = partOf(partName)
  let validate: ValidatorFn | undefined = part === undefined ? undefined : route.validators[part]
  if (validate === undefined) {
    if (!isSchemaObject(schema)) throw new errorCodes.FST_ERR_REQ_INVALID_VALIDATION_INVOCATION(partName)
    validate = compileValidationSchema(route, schema, typeof partName === 'string' ? partName : null, method, url)
  }
  return validate(input)
}

/** The route's serializer declared for a response key (`201`, `'4xx'`), or the one compiled earlier for a schema object. */
export function getSerializationFunction (route: RouteContext, statusOrSchema: unknown, contentType?: unknown): SerializerFn | undefined {
  if (typeof statusOrSchema === 'string' || typeof statusOrSchema === 'number') return route.serializers?.forKey(statusOrSchema, typeof contentType === 'string' ? contentType : undefined)
  if (isSchemaObject(statusOrSchema)) return route[kRouteSerializeFns]?.get(statusOrSchema)
  return undefined
}

/** Compiles `schema` with the route's serializer compiler (once per schema object and route). */
export function compileSerializationSchema (route: RouteContext, schema: object, httpStatus: string | null, method: string, url: string, contentType: string | null = null): SerializerFn {
  return compileOnce(route, kRouteSerializeFns, schema, () => compilers(route).serializer()(
    contentType === null ? { schema, method, url, httpStatus: httpStatus as string } : { schema, method, url, httpStatus: httpStatus as string, contentType }))
}

/**
 * Serializes `input` with the route's serializer for a response key (`serializeInput(x, 201)`),
 * else with `schema` compiled for the route. Throws FST_ERR_MISSING_SERIALIZATION_FN when the
 * route declares no schema for the key.
 */
export function serializeInput (route: RouteContext, input: unknown, schema: unknown, httpStatus: unknown, method: string, url: string, contentType?: unknown): string {
  const byKey = typeof schema === 'string' || typeof schema === 'number'
  const status = byKey ? schema : httpStatus
  // Fastify 4.29: serializeInput(input, 200, 'text/plain') names a media type of that key's `content`
  const type = byKey && typeof httpStatus === 'string' ? httpStatus : typeof contentType === 'string' ? contentType : undefined
  if (status !== null && status !== undefined) {
    const serialize = route.serializers?.forKey(status as string | number, type)
    if (serialize === undefined) {
      if (type !== undefined) throw new errorCodes.FST_ERR_MISSING_CONTENTTYPE_SERIALIZATION_FN(status, type)
      throw new errorCodes.FST_ERR_MISSING_SERIALIZATION_FN(status)
    }
    return serialize(input)
  }
  if (!isSchemaObject(schema)) throw new errorCodes.FST_ERR_MISSING_SERIALIZATION_FN(String(schema))
  return compileSerializationSchema(route, schema, null, method, url, type ?? null)(input)
}
