/**
 * decorate / decorateRequest / decorateReply and their `has*` checks. Instance decorators are own
 * properties of the context's instance (children inherit through the prototype chain); request and
 * reply decorators live on the context's Request/Reply prototypes, and value decorators are also
 * written on each instance by its constructor (one hidden class). Errors name the context chain.
 */
import { errorCodes } from '../base/errors'
import { errorCodesAddedInV5 } from '../base/errors-v5'
import { loadingBridgedPlugin } from './fastify4-bridge'
import type { PluginContext } from './plugin-context'
import type { FieldCarrier } from '../lifecycle/instance-fields'
import { emitDeprecation } from '../base/warnings'

type DecoratorTarget = 'instance' | 'request' | 'reply'

function targetObject (context: PluginContext, target: DecoratorTarget): any {
  if (target === 'instance') return context.instance
  return target === 'request' ? context.Request.prototype : context.Reply.prototype
}

function isGetterSetter (value: unknown): value is { getter?: () => unknown; setter?: (v: unknown) => void } {
  if (value === null || typeof value !== 'object') return false
  const v = value as Record<string, unknown>
  return typeof v.getter === 'function' || typeof v.setter === 'function'
}

/** A method or property of the instance class itself (the root instance's prototype chain). */
function isInstanceApi (context: PluginContext, name: string | symbol): boolean {
  return name in Object.getPrototypeOf(context.app.rootContext.instance)
}

/**
 * Fastify 5.x: the properties every request / reply gets in its constructor count as decorators
 * already present (`has*Decorator` is true, decorating them is FST_ERR_DEC_ALREADY_PRESENT, they
 * satisfy dependencies).
 */
const builtInFields: Record<DecoratorTarget, ReadonlySet<string | symbol>> = {
  instance: new Set(),
  request: new Set(['id', 'params', 'raw', 'query', 'log', 'body']),
  reply: new Set(['raw', 'request', 'log'])
}

function isBuiltInField (context: PluginContext, target: DecoratorTarget, name: unknown): boolean {
  return context.app.options.line === 5 && builtInFields[target].has(name as string)
}

export function decorate (context: PluginContext, target: DecoratorTarget, name: unknown, value: unknown, dependencies?: unknown): void {
  if (typeof name !== 'string' && typeof name !== 'symbol') throw new TypeError('The decorator name must be a string or a symbol')
  const object = targetObject(context, target)
  const label = String(name)
  // like Fastify, decorating is possible until the onReady hooks have run (an onReady hook may decorate)
  if (context.app.isReady) throw new errorCodes.FST_ERR_DEC_AFTER_START(label)
  // Only this context's own decorators (and the instance API) conflict: a child may override what an ancestor defined.
  if (Object.prototype.hasOwnProperty.call(object, name) || (target === 'instance' && isInstanceApi(context, name)) || isBuiltInField(context, target, name)) {
    throw new errorCodes.FST_ERR_DEC_ALREADY_PRESENT(label)
  }
  checkDependencies(context, target, label, dependencies)
  // an object or array value is one reference shared by every request/reply (Fastify 4.3 warns)
  // (Fastify 5 refuses it: FST_ERR_DEC_REFERENCE_TYPE)
  if (target !== 'instance' && typeof value === 'object' && value !== null && !isGetterSetter(value)) {
    if (context.app.options.line === 5 && loadingBridgedPlugin(context.app) === undefined) throw new errorCodesAddedInV5.FST_ERR_DEC_REFERENCE_TYPE(String(name), typeof value)
    emitDeprecation('FSTDEP006', label)
  }
  if (isGetterSetter(value)) {
    Object.defineProperty(object, name, { get: value.getter, set: value.setter, configurable: true, enumerable: false })
  } else {
    object[name] = value
    // value decorators of requests and replies are also set on each instance by its constructor
    if (target !== 'instance' && typeof value !== 'function') {
      const cls = (target === 'request' ? context.Request : context.Reply) as unknown as FieldCarrier
      cls.ownFields.push({ key: name, value })
    }
  }
  if (target === 'request') context.Request.decorated = true
  if (target === 'reply') context.Reply.decorated = true
  const origins = context.app.decoratorOrigins
  const key = target + ':' + label
  const list = origins.get(key) ?? []
  list.push(context.chain)
  origins.set(key, list)
}

function checkDependencies (context: PluginContext, target: DecoratorTarget, label: string, dependencies: unknown): void {
  if (dependencies === undefined || dependencies === null) return
  if (!Array.isArray(dependencies)) throw new errorCodes.FST_ERR_DEC_DEPENDENCY_INVALID_TYPE(label)
  const object = targetObject(context, target)
  for (const dependency of dependencies) {
    if (dependency in object || isBuiltInField(context, target, dependency)) continue
    const definedIn = context.app.decoratorOrigins.get(target + ':' + String(dependency))
    const err = new errorCodes.FST_ERR_DEC_MISSING_DEPENDENCY(String(dependency))
    if (definedIn !== undefined) {
      err.message += ` It is not visible in ${context.chain}; it is defined in ${definedIn.join(', ')}.`
    }
    throw err
  }
}

export function hasDecorator (context: PluginContext, target: DecoratorTarget, name: string | symbol): boolean {
  return name in targetObject(context, target) || isBuiltInField(context, target, name)
}
