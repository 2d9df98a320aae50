import { test } from 'node:test'
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { aliasedLine } from '../../src/alias-line'

const root = join(__dirname, '..', '..')

// these run the built package (npm test builds before the tests)
test('trellis/v5 loads with require and import and makes Fastify 5 applications; trellis stays 4', () => {
  const script = `
    const v5 = require('trellis/v5'); const v4 = require('trellis')
    import('trellis/v5').then(async (m) => {
      const out = [new v5().version, v5.default().version, v5.trellis().version, v5.fastify().version, m.default().version, m.trellis().version, v4().version,
        typeof v5.errorCodes.FST_ERR_DEC_REFERENCE_TYPE, typeof v4.errorCodes.FST_ERR_DEC_REFERENCE_TYPE, typeof m.errorCodes.FST_ERR_PLUGIN_INVALID_ASYNC_HANDLER]
      console.log(JSON.stringify(out))
    })`
  const out = execFileSync(process.execPath, ['-e', script], { cwd: root, encoding: 'utf8' })
  assert.deepEqual(JSON.parse(out), ['5.12.8', '5.12.8', '5.12.8', '5.12.8', '5.12.8', '5.12.8', '4.29.1', 'function', 'undefined', 'function'])
})

test('aliasedLine: only an install named fastify reads the choice; env first, then the app package.json', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-alias-'))
  try {
    const pkg = join(dir, 'node_modules', 'fastify')
    mkdirSync(pkg, { recursive: true })
    assert.equal(aliasedLine(pkg, {}), 4, 'no choice: the Fastify 4 line')
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ trellis: { fastifyLine: 5 } }))
    assert.equal(aliasedLine(pkg, {}), 5)
    assert.equal(aliasedLine(pkg, { TRELLIS_FASTIFY_LINE: '4' }), 4, 'the environment wins')
    assert.equal(aliasedLine(join(dir, 'node_modules', 'trellis'), { TRELLIS_FASTIFY_LINE: '5' }), 4, 'not aliased: the entry decides')
    writeFileSync(join(dir, 'package.json'), '{ not json')
    assert.equal(aliasedLine(pkg, {}), 4, 'an unreadable package.json: the Fastify 4 line')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('installed as fastify, require("fastify") gives the line the application chose', () => {
  const dir = mkdtempSync(join(tmpdir(), 'trellis-alias-app-'))
  try {
    const pkg = join(dir, 'node_modules', 'fastify')
    mkdirSync(pkg, { recursive: true })
    cpSync(join(root, 'dist'), join(pkg, 'dist'), { recursive: true })
    cpSync(join(root, 'package.json'), join(pkg, 'package.json'))
    const run = (): string => execFileSync(process.execPath, ['-e', "const f = require('fastify'); import('fastify').then((m) => console.log(f().version, m.default().version))"], {
      cwd: dir, encoding: 'utf8', env: { ...process.env, NODE_PATH: join(root, 'node_modules'), TRELLIS_FASTIFY_LINE: '' }
    }).trim()
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true }))
    assert.equal(run(), '4.29.1 4.29.1')
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'app', private: true, trellis: { fastifyLine: 5 } }))
    assert.equal(run(), '5.12.8 5.12.8')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
