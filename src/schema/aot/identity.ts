/** This process's identity as a build records it: trellis, Node, Ajv and the serializer generator. */
import { runtimeId } from '../../base/runtime'
import { VERSION } from '../../base/version'
import { currentVersions } from '../validation/compile-cache/validator-keys'
import { currentSourceCacheVersions } from '../serialization/source-keys'
import { AOT_FORMAT, type AotIdentity } from './build-format'

let identity: AotIdentity | undefined

export function aotIdentity (): AotIdentity {
  if (identity === undefined) {
    const versions = currentVersions()
    identity = {
      format: AOT_FORMAT,
      runtime: runtimeId(),
      trellis: VERSION,
      node: process.versions.node,
      ajv: versions.ajv,
      ajvFormats: versions.ajvFormats,
      generator: currentSourceCacheVersions().generator ?? null
    }
  }
  return identity
}
