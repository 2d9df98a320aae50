'use strict'
// stand-in for `is-my-json-valid` (a test-only dependency of the fjs suite): validate with Ajv.
// Like is-my-json-valid, `nullable` is ignored and `time` is HH:mm:ss; `errors` is null on success.
const Ajv = require('ajv')
const addFormats = require('ajv-formats')
function strip (s) {
  if (Array.isArray(s)) return s.map(strip)
  if (s === null || typeof s !== 'object') return s
  const out = {}
  for (const k of Object.keys(s)) if (k !== 'nullable') out[k] = strip(s[k])
  return out
}
module.exports = function validator (schema) {
  const ajv = new Ajv({ strict: false, allowUnionTypes: true, validateSchema: false })
  addFormats(ajv)
  ajv.addFormat('time', /^\d\d:\d\d:\d\d(\.\d+)?$/)
  const v = ajv.compile(strip(schema))
  const fn = (data) => { const ok = v(data); fn.errors = v.errors || null; return ok }
  fn.errors = null
  return fn
}
