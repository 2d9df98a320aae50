/**
 * The default serializer compiler's side of `trellis build` (loaded only when a build is read or
 * recorded): as ./validators.ts, for response serializers. A serializer whose constants cannot be
 * written as JavaScript (the matchers of `anyOf` / `oneOf`) is generated at every start.
 */
import type { AotOptions } from '../../base/option-types'
import { generateSource, serializerFromSource, type CompileOptions, type SerializerFn } from '../serialization/compile'
import { createSerializerKeyer } from '../serialization/source-keys'
import { constsText } from './build-format'
import { aotRecorder } from './recording'
import { loadAotBuild } from './load-build'
import { noteAotMiss } from './misses'

export interface AotSerializers {
  /**
   * The serializer of `schema`: from the build, or (recording) generated and recorded; undefined
   * when the build lacks it (reported, unless expected) or the schema cannot be keyed.
   */
  compile: (schema: unknown, options: CompileOptions, where: () => string) => (SerializerFn & { source: string }) | undefined
}

export function aotSerializers (aot: AotOptions | undefined, sharedSchemas: Record<string, unknown>): AotSerializers | undefined {
  const recorder = aotRecorder()
  if (recorder === null && aot === undefined) return undefined
  const keyOf = createSerializerKeyer(sharedSchemas)
  if (keyOf === undefined) return undefined
  if (recorder !== null) {
    return {
      compile (schema, options) {
        const key = keyOf(schema, options)
        if (key === undefined) return undefined
        const { source, consts } = generateSource(schema, options) // an invalid schema throws here
        const text = constsText(consts)
        if (text === undefined) recorder.atStart.add(key)
        else recorder.serializers.set(key, { source, constsText: text })
        return serializerFromSource(source, consts, options)
      }
    }
  }
  const build = loadAotBuild((aot as AotOptions).dir, (aot as AotOptions).line)
  if (build === undefined) return undefined
  return {
    compile (schema, options, where) {
      const key = keyOf(schema, options)
      if (key === undefined) return undefined
      const fn = build.serializer(key, options)
      if (fn === undefined && !build.compiledAtStart(key)) noteAotMiss(where)
      return fn
    }
  }
}
