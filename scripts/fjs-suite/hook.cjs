'use strict'
// Redirects fast-json-stringify's own entry (`require('..')`) to trellis' adapter, and `tap` /
// `is-my-json-valid` to the local stand-ins, for test files under node_modules/fast-json-stringify/test.
require('tsx/cjs') // TypeScript sources of trellis; registered first so the redirect below wraps it
const Module = require('node:module')
const path = require('node:path')
const fjsRoot = path.dirname(require.resolve('fast-json-stringify/package.json', { paths: [path.join(__dirname, '../..')] }))
const original = Module._resolveFilename
Module._resolveFilename = function (request, parent, ...rest) {
  if (request === 'tap') return path.join(__dirname, 'tap.cjs')
  if (request === 'is-my-json-valid') return path.join(__dirname, 'ismyjsonvalid.cjs')
  if (parent && parent.filename && parent.filename.startsWith(path.join(fjsRoot, 'test'))) {
    const resolved = path.resolve(path.dirname(parent.filename), request)
    if (resolved === fjsRoot || resolved === path.join(fjsRoot, 'index.js')) return path.join(__dirname, 'adapter.cjs')
  }
  return original.call(this, request, parent, ...rest)
}
