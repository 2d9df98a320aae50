/**
 * A light structural check run before code generation, so that a malformed schema fails at build
 * time with a message in fast-json-stringify@5's style ("schema is invalid: data/<path> ...")
 * instead of producing a surprising serializer.
 */
const TYPES = new Set(['null', 'boolean', 'object', 'array', 'number', 'string', 'integer'])
const DATA = new Set(['enum', 'const', 'default', 'examples', 'example'])
const checked = new WeakSet<object>()

export function checkSchema (schema: unknown, name?: string): void {
  if (schema === null || typeof schema !== 'object' || checked.has(schema)) return
  const prefix = name === undefined ? '' : `"${name}" `
  const fail = (path: string, message: string): never => { throw new Error(`${prefix}schema is invalid: data${path} ${message}`) }
  const seen = new Set<object>()
  const walk = (node: unknown, path: string): void => {
    if (node === null || typeof node !== 'object' || seen.has(node)) return
    seen.add(node)
    if (Array.isArray(node)) { node.forEach((x, i) => walk(x, `${path}/${i}`)); return }
    const s = node as Record<string, unknown>
    if (s.type !== undefined) {
      const types = Array.isArray(s.type) ? s.type : [s.type]
      if (types.length === 0 || types.some((t) => typeof t !== 'string' || !TYPES.has(t))) fail(`${path}/type`, 'must be equal to one of the allowed values')
    }
    for (const k of ['allOf', 'anyOf', 'oneOf']) {
      if (s[k] === undefined) continue
      if (!Array.isArray(s[k])) fail(`${path}/${k}`, 'must be array')
      if ((s[k] as unknown[]).length === 0) fail(`${path}/${k}`, 'must NOT have fewer than 1 items')
    }
    if (s.required !== undefined && !Array.isArray(s.required)) fail(`${path}/required`, 'must be array')
    if (s.$ref !== undefined && typeof s.$ref !== 'string') fail(`${path}/$ref`, 'must be string')
    for (const k of Object.keys(s)) {
      if (DATA.has(k)) continue
      if (k === 'properties' || k === 'patternProperties' || k === 'definitions' || k === '$defs') {
        const map = s[k]
        if (map !== null && typeof map === 'object') for (const p of Object.keys(map)) walk((map as Record<string, unknown>)[p], `${path}/${k}/${p}`)
      } else if (k !== 'type') walk(s[k], `${path}/${k}`)
    }
  }
  walk(schema, '')
  checked.add(schema)
}
