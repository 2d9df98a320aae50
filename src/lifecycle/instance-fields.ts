/**
 * Value decorators of Request and Reply (`decorateRequest('user', null)`) become fields that every
 * instance gets in its constructor, so assigning them later (`request.user = ...` in a hook) never
 * changes the object's hidden class: all requests of a route keep one shape (a V8 performance
 * rule, and what Fastify 4.3 does). Methods and getter/setter decorators stay on the prototype.
 */
import { errorCodesAddedInV5 } from '../base/errors-v5'

export interface DecoratedField { key: string | symbol; value: unknown }

export interface FieldCarrier {
  /** Value decorators defined by this very class (its context). */
  ownFields: DecoratedField[]
  /** All value decorators of this class and its ancestors, resolved at ready(). */
  instanceFields: DecoratedField[]
  /** Writes `instanceFields` on a new instance (compiled at ready(); called by the constructors). */
  applyFields: (target: object) => void
}

function initFieldCarrier (cls: Partial<FieldCarrier>): void {
  cls.ownFields = []
  cls.instanceFields = []
  cls.applyFields = applyNoFields
}

export function applyNoFields (_target: object): void {}

/** Resolves `instanceFields` from the root class down to `cls` (a child's field overrides its parent's). */
export function resolveInstanceFields (cls: FieldCarrier): void {
  const chain: FieldCarrier[] = []
  for (let c: any = cls; c !== null && typeof c === 'function' && Array.isArray(c.ownFields); c = Object.getPrototypeOf(c)) {
    if (Object.prototype.hasOwnProperty.call(c, 'ownFields')) chain.unshift(c)
  }
  const byKey = new Map<string | symbol, DecoratedField>()
  for (const c of chain) for (const field of c.ownFields) byKey.set(field.key, field)
  cls.instanceFields = [...byKey.values()]
  cls.applyFields = compileFieldApplier(cls.instanceFields)
}

/**
 * One function per class that writes its fields with one store per field (each store site sees one
 * key, so V8 keeps it monomorphic), instead of a loop whose single keyed store sees every key of
 * every class. Keys and values are passed in as constants, never written into the source.
 */
function compileFieldApplier (fields: DecoratedField[]): (target: object) => void {
  if (fields.length === 0) return applyNoFields
  const params: string[] = []
  const args: unknown[] = []
  const lines: string[] = []
  for (let i = 0; i < fields.length; i++) {
    params.push(`k${i}`, `v${i}`)
    args.push(fields[i].key, fields[i].value)
    lines.push(`  t[k${i}] = v${i}`)
  }
  // eslint-disable-next-line no-new-func
  const make = new Function(...params, `return function applyFields (t) {\n${lines.join('\n')}\n}`) as (...a: unknown[]) => (target: object) => void
  return make(...args)
}

/**
 * A per-context subclass of Request or Reply: what a context decorates goes on its own class, so
 * its parent and siblings never see it. `parent` is the parent context's class (Fastify exposes it).
 */
export function deriveDecoratableClass<T extends abstract new (...args: any[]) => object> (parent: T): T & { decorated: boolean } {
  const Derived = class extends (parent as unknown as new (...args: any[]) => object) {} as unknown as T & { decorated: boolean }
  Derived.decorated = false
  initFieldCarrier(Derived as unknown as FieldCarrier)
  Object.defineProperty(Derived, 'parent', { value: parent })
  return Derived
}

/** Fastify 5's `getDecorator`: a declared property (decorators, built-ins), methods bound to their owner; FST_ERR_DEC_UNDECLARED otherwise. */
export function readDecorator (owner: object, name: string | symbol, kind: 'instance' | 'request' | 'reply'): unknown {
  if (!(name in owner)) throw new errorCodesAddedInV5.FST_ERR_DEC_UNDECLARED(String(name), kind)
  const value = (owner as Record<string | symbol, unknown>)[name]
  return typeof value === 'function' ? value.bind(owner) : value
}
