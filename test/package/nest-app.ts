/**
 * NestJS on trellis, shared by test/package/nest{10,11,12}-app.test.ts (one file per Nest major, each
 * within the test files' time limit): one Nest application (test/package/fixtures/nest-app-src: a
 * guard, a ValidationPipe with class-validator DTOs, an exception filter, middleware, one of which
 * throws an HttpException, an interceptor, header versioning, @Redirect, StreamableFile, rawBody,
 * CORS, @fastify/helmet through app.register() and a content-type parser on the Fastify instance)
 * installed from the major's own package-lock.json, with `fastify` aliased to the packed trellis
 * tarball and `"overrides": { "fastify": "$fastify" }` so that @nestjs/platform-fastify, which pins
 * fastify exactly, loads trellis too. It is compiled with tsc (strict, skipLibCheck off) when
 * installed (test/package/packed.ts, before the test files start); here its type-check result is
 * asserted and its e2e tests (node:test, inject and supertest) run unchanged. With Nest's own pinned
 * fastify instead (4.28.1, 5.11.3, 5.12.8: the fixture without the alias and the override) the same
 * tests pass but the first, which asks which fastify the adapter loads, and tsc reports no error
 * (checked 2026-11-27).
 */
import { before, test } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, readFileSync } from 'node:fs'
import { delimiter, dirname, join } from 'node:path'
import { installedFixture, npmMissing, run, type Run } from './packed'

/**
 * The tests of one Nest major. `declarationsGap`: TS2344 errors tsc is known to report in
 * @nestjs/platform-fastify's fastify-adapter.d.ts (with `"fastify": "npm:trellis@…"` an ES-module
 * program reads the Fastify 4 line's declarations, 5 of them for Nest 11; the Nest 11 and 12
 * fixtures install trellis-fastify5, whose declarations are the Fastify 5 line's, and report none):
 * while it is not 0 the type-check test is a todo naming them.
 */
export function nestAppTests (nest: number, line: 4 | 5, declarationsGap: number): void {
  let skip: string | undefined
  let app = ''
  before(async () => {
    skip = await npmMissing()
    // installed and compiled once per commit and fixture content (scripts/run-tests.mjs does it before the test files)
    if (skip === undefined) app = await installedFixture(`nest${nest}-app`)
  }, { timeout: 600_000 })

  test(`Nest ${nest}: the app type-checks against trellis's declarations (Fastify ${line} line, strict, skipLibCheck off)`, {
    todo: declarationsGap > 0 ? `${declarationsGap}× TS2344 in @nestjs/platform-fastify's fastify-adapter.d.ts: the ES-module program sees the Fastify 4 line's declarations` : false
  }, (t) => {
    if (skip !== undefined) return t.skip(skip)
    const tsc = JSON.parse(readFileSync(join(app, 'tsc-result.json'), 'utf8')) as Run
    assert.equal(tsc.status, 0, tsc.stdout + tsc.stderr)
  })

  test(`Nest ${nest}: its e2e tests pass unchanged on trellis`, async (t) => {
    if (skip !== undefined) return t.skip(skip)
    assert.ok(existsSync(join(app, 'dist', 'test', 'app.spec.js')), 'tsc wrote no dist/test/app.spec.js')
    const r = await run('npm', ['test'], app, { PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` })
    assert.equal(r.status, 0, r.stdout + r.stderr)
    assert.match(r.stdout, /^(?:#|ℹ) pass 20$/m)
    assert.match(r.stdout, /^(?:#|ℹ) fail 0$/m)
  })
}
