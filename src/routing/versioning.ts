/**
 * The deprecated `versioning` server option (Fastify 4.3): a custom storage and derivation for
 * the `version` constraint. It becomes the `version` constraint strategy; versions must be strings.
 */
import { emitDeprecation } from '../base/warnings'
import { errorCodes } from '../base/errors'

export interface VersioningOption {
  storage: () => unknown
  deriveVersion: (req: unknown, ctx: unknown) => unknown
}

/** `constraints` with the `versioning` option folded in as the `version` strategy (and FSTDEP009 emitted). */
export function withVersioning (constraints: Record<string, unknown> | undefined, versioning: VersioningOption | undefined): Record<string, unknown> | undefined {
  if (versioning === undefined || versioning === null) return constraints
  emitDeprecation('FSTDEP009')
  return {
    ...constraints,
    version: {
      name: 'version',
      mustMatchWhenDerived: true,
      storage: versioning.storage,
      deriveConstraint: versioning.deriveVersion,
      validate (value: unknown): void {
        if (typeof value !== 'string') throw new errorCodes.FST_ERR_VERSION_CONSTRAINT_NOT_STR()
      }
    }
  }
}
