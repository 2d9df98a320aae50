import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import trellis from '../../src/index'

// no TLS material here: the server comes from a factory, initialConfig still reflects `https`
const serverFactory = (handler: (req: any, res: any) => void): http.Server => http.createServer(handler)

test('initialConfig without options: 4.3\'s defaults only (no http2/https keys), with http2SessionTimeout', () => {
  const c = trellis().initialConfig as Record<string, unknown>
  assert.equal(c.http2SessionTimeout, 72000)
  assert.ok(!('http2' in c))
  assert.ok(!('https' in c))
})

test('initialConfig never shows https keys or certificates, and is frozen deeply; the given options are not frozen', () => {
  const options = { https: { allowHTTP1: true, key: 'secret-key', cert: 'cert' }, serverFactory }
  const app = trellis(options)
  assert.deepEqual(app.initialConfig.https, { allowHTTP1: true })
  assert.ok(Object.isFrozen(app.initialConfig.https))
  assert.equal(Object.isFrozen(options.https), false)
  assert.equal(trellis({ https: { key: 'k', cert: 'c' }, serverFactory } as never).initialConfig.https, true)
})

test('initialConfig keeps constraints (a copy) and leaves out functions given as options', () => {
  const strategy = { name: 'version', storage: () => ({}), deriveConstraint: () => '', validate () {} }
  const app = trellis({ constraints: { version: strategy }, genReqId: () => 'x', querystringParser: (s: string) => ({ s }) } as never)
  const c = app.initialConfig as Record<string, any>
  assert.ok(c.constraints.version)
  assert.equal(c.genReqId, undefined)
  assert.equal(c.querystringParser, undefined)
  assert.equal(Object.isFrozen(strategy), false)
})
