'use strict'
// fast-json-stringify@5's `build(schema, options)` on top of trellis' compiler (used only by scripts/fjs-suite.mjs).
const { compileSerializer } = require('../../src/schema/serialization/index.ts')

function build (schema, options = {}) {
  if (options.rounding !== undefined && !['trunc', 'floor', 'ceil', 'round'].includes(options.rounding)) {
    throw new Error(`Unsupported integer rounding method ${options.rounding}`)
  }
  if (options.mode === 'standalone') throw new Error('standalone mode is not supported by trellis')
  if (options.mode === 'debug' || options.debugMode) {
    const fn = compileSerializer(schema, { sharedSchemas: options.schema, rounding: options.rounding })
    return { code: fn.source, serializer: fn }
  }
  return compileSerializer(schema, { sharedSchemas: options.schema, rounding: options.rounding })
}
module.exports = build
module.exports.default = build
module.exports.build = build
module.exports.validLargeArrayMechanisms = ['default', 'json-stringify']
module.exports.restore = () => { throw new Error('restore() (standalone/debug mode) is not supported by trellis') }
