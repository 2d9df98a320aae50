/**
 * Just enough semver to honour a plugin's `fastify` version range (fastify-plugin metadata):
 * `4.x`, `4.3.x`, `^4.0.0`, `~4.3`, `>=4 <5`, `4 || 5`, `*`. No runtime dependency needed.
 */
type Version = [number, number, number]

function parseVersion (text: string): { v: Version; wild: number } | null {
  const m = /^v?(\d+|x|\*)(?:\.(\d+|x|\*))?(?:\.(\d+|x|\*))?(?:[-+].*)?$/i.exec(text.trim())
  if (m === null) return null
  const parts = [m[1], m[2], m[3]]
  let wild = 3
  const v: number[] = []
  for (let i = 0; i < 3; i++) {
    const p = parts[i]
    if (p === undefined || p === 'x' || p === 'X' || p === '*') { wild = Math.min(wild, i); v.push(0) } else v.push(Number(p))
  }
  return { v: v as Version, wild }
}

function compare (a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1
  return 0
}

function upper (v: Version, index: number): Version {
  if (index === 0) return [v[0] + 1, 0, 0]
  if (index === 1) return [v[0], v[1] + 1, 0]
  return [v[0], v[1], v[2] + 1]
}

function satisfiesComparator (version: Version, comparator: string): boolean {
  const m = /^(\^|~|>=|<=|>|<|=)?\s*(.*)$/.exec(comparator)
  if (m === null) return false
  const op = m[1] ?? ''
  const parsed = parseVersion(m[2])
  if (parsed === null) return false
  const { v, wild } = parsed
  if (wild === 0) return true
  switch (op) {
    case '>=': return compare(version, v) >= 0
    case '>': return wild < 3 ? compare(version, upper(v, wild - 1)) >= 0 : compare(version, v) > 0
    case '<=': return wild < 3 ? compare(version, upper(v, wild - 1)) < 0 : compare(version, v) <= 0
    case '<': return compare(version, v) < 0
    case '^': {
      const index = v[0] !== 0 || wild === 1 ? 0 : (v[1] !== 0 || wild === 2 ? 1 : 2)
      return compare(version, v) >= 0 && compare(version, upper(v, index)) < 0
    }
    case '~': return compare(version, v) >= 0 && compare(version, upper(v, wild === 1 ? 0 : 1)) < 0
    default: return wild < 3 ? compare(version, v) >= 0 && compare(version, upper(v, wild - 1)) < 0 : compare(version, v) === 0
  }
}

export function satisfies (versionText: string, range: string): boolean {
  const version = parseVersion(versionText)
  if (version === null) return false
  return range.split('||').some((set) => {
    const trimmed = set.trim()
    if (trimmed === '' || trimmed === '*') return true
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(trimmed)
    if (hyphen !== null) return satisfiesComparator(version.v, '>=' + hyphen[1]) && satisfiesComparator(version.v, '<=' + hyphen[2])
    const comparators = trimmed.replace(/(\^|~|>=|<=|>|<|=)\s+/g, '$1').split(/\s+/)
    return comparators.every((c) => satisfiesComparator(version.v, c))
  })
}

/**
 * Release-candidate rule of Fastify 4.3: a `-rc` framework version loads plugins written for an
 * earlier release (its version is above the range's first version, e.g. `^98.1.0` for `99.0.0-rc.1`).
 */
export function rcAcceptsOlder (versionText: string, range: string): boolean {
  if (!/-rc.+$/.test(versionText)) return false
  const version = parseVersion(versionText)
  const first = /(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(range)
  if (version === null || first === null) return false
  const floor: Version = [Number(first[1]), Number(first[2] ?? 0), Number(first[3] ?? 0)]
  // a prerelease sorts below its release: 99.0.0-rc.1 is not above 99.0.0
  return compare(version.v, floor) > 0
}
