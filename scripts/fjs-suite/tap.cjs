'use strict'
// A minimal `tap` stand-in: enough of tap 16's Test API for fast-json-stringify's test files.
const assert = require('node:assert')
const util = require('node:util')

const results = { pass: 0, fail: 0, failures: [] }

function matches (actual, pattern) {
  if (pattern instanceof RegExp) return typeof actual === 'string' && pattern.test(actual)
  if (typeof pattern === 'function') return actual instanceof pattern
  if (pattern !== null && typeof pattern === 'object') {
    if (actual === null || actual === undefined) return false
    return Object.keys(pattern).every((k) => matches(actual[k], pattern[k]))
  }
  if (typeof pattern === 'string' && typeof actual === 'string') return actual.includes(pattern)
  return actual == pattern // eslint-disable-line eqeqeq
}

// t.type(value, t): t is a type name ('string', 'Buffer', ...) or a class
function isType (v, t) {
  if (typeof t !== 'string') return v instanceof t
  return typeof v === t || Boolean(v && v.constructor && v.constructor.name === t) // eslint-disable-line valid-typeof -- t is a name given at run time
}

class Test {
  constructor (name, parent) {
    this.name = name
    this.parent = parent
    this.count = 0
    this.planned = undefined
    this.ended = false
    this.subtests = []
    this.teardowns = []
    this.onDone = null
  }

  get fullName () { return this.parent && this.parent.name ? this.parent.fullName + ' > ' + this.name : this.name }
  _assert (ok, msg, extra) {
    this.count++
    if (ok) results.pass++
    else {
      results.fail++
      results.failures.push(`${this.fullName}: ${msg || 'assertion failed'}${extra ? ' ' + extra : ''}`)
    }
    this._check()
  }

  _check () { if (this.planned !== undefined && this.count >= this.planned && this.onDone) this.onDone() }
  plan (n) { this.planned = n; this._check() }
  end () { this.ended = true; if (this.onDone) this.onDone() }
  teardown (fn) { this.teardowns.push(fn) }
  ok (v, msg) { this._assert(!!v, msg || 'expected truthy') }
  notOk (v, msg) { this._assert(!v, msg || 'expected falsy') }
  pass (msg) { this._assert(true, msg) }
  fail (msg) { this._assert(false, msg || 'fail()') }
  equal (a, b, msg) { this._assert(a === b, msg || 'equal', `\n      got:  ${util.inspect(a)}\n      want: ${util.inspect(b)}`) }
  not (a, b, msg) { this._assert(a !== b, msg || 'not equal') }
  same (a, b, msg) {
    let ok = true
    try { assert.deepEqual(a, b) } catch { ok = false }
    this._assert(ok, msg || 'same', `\n      got:  ${util.inspect(a, { depth: 5 })}\n      want: ${util.inspect(b, { depth: 5 })}`)
  }

  strictSame (a, b, msg) { this._assert(util.isDeepStrictEqual(a, b), msg || 'strictSame') }
  type (v, t, msg) { this._assert(isType(v, t), msg || 'type') }
  match (v, p, msg) { this._assert(matches(v, p), msg || 'match') }
  keys () { this._assert(true) }
  comment () {}
  error (e, msg) { this._assert(!e, msg || 'error') }
  doesNotThrow (fn, msg) { try { fn(); this._assert(true) } catch (e) { this._assert(false, msg || 'doesNotThrow', e && e.message) } }
  throws (fn, expected, msg) {
    if (typeof expected === 'string') { msg = expected; expected = undefined }
    try { fn() } catch (err) {
      let ok = true
      if (expected instanceof Error) ok = err instanceof Error && err.message === expected.message
      else if (expected !== undefined) ok = matches(err, expected) || (expected instanceof RegExp && matches(err.message, expected))
      this._assert(ok, msg || 'throws', `\n      got error: ${err && err.message}\n      want: ${util.inspect(expected)}`)
      return
    }
    this._assert(false, msg || 'expected to throw')
  }

  test (name, opts, fn) {
    if (typeof opts === 'function') { fn = opts; opts = {} }
    if (typeof name === 'function') { fn = name; name = '(unnamed)' }
    const sub = new Test(name, this)
    const p = runTest(sub, fn, opts).then(() => { this.count++; this._check() })
    this.subtests.push(p)
    return p
  }

  skip () { return Promise.resolve() }
  todo () { return Promise.resolve() }
  only (...a) { return this.test(...a) }
}

let chain = Promise.resolve()

function runTest (t, fn, opts) {
  if (opts && (opts.skip || opts.todo)) return Promise.resolve()
  return new Promise((resolve) => {
    let finished = false
    const finish = async () => {
      if (finished) return
      finished = true
      clearTimeout(timer)
      await Promise.all(t.subtests).catch(() => {})
      for (const td of t.teardowns) { try { await td() } catch {} }
      if (t.planned !== undefined && t.count !== t.planned) {
        results.fail++
        results.failures.push(`${t.fullName}: plan ${t.planned}, got ${t.count} assertions`)
      }
      resolve()
    }
    const timer = setTimeout(() => { t._assert(false, 'timeout'); finish() }, 3000)
    t.onDone = () => { setImmediate(finish) }
    let ret
    try { ret = fn(t) } catch (err) {
      t._assert(false, 'threw', err && err.stack ? err.stack.split('\n').slice(0, 3).join(' | ') : String(err))
      finish(); return
    }
    Promise.resolve(ret).then(async () => {
      await Promise.all(t.subtests).catch(() => {})
      if (ret && typeof ret.then === 'function') finish()
      else if (t.planned === undefined && !t.ended) finish()
      else t._check()
    }, (err) => { t._assert(false, 'rejected', err && err.message); finish() })
  })
}

const root = new Test('', null)
function test (name, opts, fn) {
  if (typeof opts === 'function') { fn = opts; opts = {} }
  const sub = new Test(name, root)
  chain = chain.then(() => runTest(sub, fn, opts))
  return chain
}
root.test = test
const tap = Object.assign(root, { test, tap: root, default: root })
module.exports = tap
process.on('exit', () => {
  process.stdout.write(JSON.stringify(results) + '\n')
})
