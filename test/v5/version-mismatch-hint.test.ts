/**
 * A plugin that asks for the other Fastify line fails its version check with Fastify's error
 * (FST_ERR_PLUGIN_VERSION_MISMATCH, Fastify's text first) and the message names the setting that
 * picks that line: under the package alias the application's `"trellis": { "fastifyLine": 5 }`,
 * installed under its own name the `trellis/v5` entry.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import trellis from '../../src/index'
import { installedAsFastify, lineHint } from '../../src/context/line-hint'

const root = join(__dirname, '..', '..')

function needsFive (): object {
  const fn = async (): Promise<void> => {}
  Object.assign(fn, { [Symbol.for('plugin-meta')]: { fastify: '5.x', name: '@fastify/cors' } })
  return fn
}

test('installed as trellis: a plugin for 5.x names trellis/v5', async () => {
  const app = trellis()
  app.register(needsFive() as never)
  await assert.rejects(app.ready(), (err: Error & { code?: string }) => {
    assert.equal(err.code, 'FST_ERR_PLUGIN_VERSION_MISMATCH')
    assert.equal(err.message, "fastify-plugin: @fastify/cors - expected '5.x' fastify version, '4.29.1' is installed (this application runs trellis's Fastify 4 line: import 'trellis/v5' for the Fastify 5 line)")
    return true
  })
})

test('a range that admits neither line, or an overridden version, keeps Fastify\'s text alone', async () => {
  assert.equal(lineHint(4, '3.x', true), '')
  assert.equal(lineHint(5, '6.x', false), '')
  const app = trellis()
  app.register(Object.assign(async () => {}, { [Symbol.for('plugin-meta')]: { fastify: '3.x', name: 'old' } }) as never)
  await assert.rejects(app.ready(), { code: 'FST_ERR_PLUGIN_VERSION_MISMATCH', message: "fastify-plugin: old - expected '3.x' fastify version, '4.29.1' is installed" })
})

test('installedAsFastify reads the nearest package.json directory', () => {
  assert.equal(installedAsFastify(__dirname), false)
  const work = mkdtempSync(join(tmpdir(), 'trellis-hint-'))
  try {
    mkdirSync(join(work, 'node_modules', 'fastify', 'dist', 'lib'), { recursive: true })
    writeFileSync(join(work, 'node_modules', 'fastify', 'package.json'), '{"name":"trellis"}')
    assert.equal(installedAsFastify(join(work, 'node_modules', 'fastify', 'dist', 'lib')), true)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})

test('under the package alias (the checkout as node_modules/fastify): the message names "fastifyLine": 5', { timeout: 60_000 }, () => {
  const work = mkdtempSync(join(tmpdir(), 'trellis-alias-'))
  try {
    mkdirSync(join(work, 'node_modules'))
    // the checkout as node_modules/fastify; --preserve-symlinks keeps that path as the module's
    symlinkSync(root, join(work, 'node_modules', 'fastify'), 'dir')
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'app', private: true }))
    writeFileSync(join(work, 'app.js'), `
      const fastify = require('fastify')
      const app = fastify()
      const plugin = async () => {}
      plugin[Symbol.for('plugin-meta')] = { fastify: '5.x', name: '@fastify/cors' }
      app.register(plugin)
      app.ready().then(() => console.log('loaded ' + app.version), (err) => console.log(err.code + ': ' + err.message))
    `)
    const run = spawnSync(process.execPath, ['--preserve-symlinks', 'app.js'], { cwd: work, encoding: 'utf8', env: { ...process.env, TRELLIS_FASTIFY_LINE: '' } })
    assert.equal(run.status, 0, run.stderr)
    assert.equal(run.stdout.trim(), 'FST_ERR_PLUGIN_VERSION_MISMATCH: fastify-plugin: @fastify/cors - expected \'5.x\' fastify version, \'4.29.1\' is installed (trellis installed as fastify runs the Fastify 4 line: set "trellis": { "fastifyLine": 5 } in the application\'s package.json, or TRELLIS_FASTIFY_LINE=5)')
    // the setting it names makes the same application load on the Fastify 5 line
    writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'app', private: true, trellis: { fastifyLine: 5 } }))
    const fixed = spawnSync(process.execPath, ['--preserve-symlinks', 'app.js'], { cwd: work, encoding: 'utf8', env: { ...process.env, TRELLIS_FASTIFY_LINE: '' } })
    assert.equal(fixed.stdout.trim(), 'loaded 5.12.8', fixed.stderr)
  } finally {
    rmSync(work, { recursive: true, force: true })
  }
})
