/**
 * Starts examples/demo.mjs (which imports the BUILT package from dist/) as a child process on a free
 * port and checks every route it advertises over HTTP. Needs `npm run build` first (`npm test` runs it).
 */
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { parserDereference, schemaErrors } from '../openapi/helpers'

const root = join(__dirname, '..', '..')
const API_KEY = 'demo-test-key-91c2'

let child: ChildProcess | undefined
let base = ''
let output = ''

function startDemo (): Promise<string> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [join(root, 'examples', 'demo.mjs')], {
      cwd: root,
      env: { ...process.env, PORT: '0', HOST: '127.0.0.1', API_KEY },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    child = proc
    const timer = setTimeout(() => reject(new Error(`demo did not print its address within 15s; output:\n${output}`)), 15000)
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8')
      const m = /^listening on (http:\/\/\S+)$/m.exec(output)
      if (m !== null) { clearTimeout(timer); resolve(m[1]) }
    }
    proc.stdout?.on('data', onData)
    proc.stderr?.on('data', (chunk: Buffer) => { output += chunk.toString('utf8') })
    proc.once('exit', (code) => { clearTimeout(timer); reject(new Error(`demo exited early (code ${code}); output:\n${output}`)) })
  })
}

async function call (path: string, init?: { method?: string; headers?: Record<string, string>; body?: string }): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(base + path, init)
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), headers: res.headers }
}

describe('examples/demo.mjs (built package)', () => {
  before(async () => {
    for (const file of ['index.mjs', 'plugin.mjs', 'bearer-auth.mjs', 'openapi.mjs']) {
      const path = join(root, 'dist', 'entry', file)
      if (!existsSync(path)) throw new Error(`${path} is missing: run \`npm run build\` before this test (\`npm test\` builds first)`)
    }
    base = await startDemo()
  })

  after(async () => {
    const proc = child
    if (proc?.pid === undefined || proc.exitCode !== null || proc.signalCode !== null) return
    const exited = new Promise((resolve) => proc.once('exit', resolve))
    process.kill(proc.pid, 'SIGTERM')
    await exited
  })

  it('prints its routes and curl lines for each of them', () => {
    assert.match(base, /^http:\/\/127\.0\.0\.1:\d+$/)
    for (const route of ['one', 'wo', 'hree', 'items', ':id']) assert.ok(output.includes(route), `printRoutes shows ${route}`)
    for (const path of ['/one', '/two', '/three', '/items', '/users/1']) assert.ok(output.includes('curl -i') && output.includes(base + path), `curl line for ${path}`)
    assert.ok(output.includes(`authorization: Bearer ${API_KEY}`), 'curl line with the key')
    assert.ok(!output.includes('demo-key-change-me'), 'API_KEY from the environment replaces the demo key')
  })

  it('/one needs the bearer key (context A)', async () => {
    const missing = await call('/one')
    assert.equal(missing.status, 401)
    assert.deepEqual(missing.body, { error: 'missing authorization header' })
    assert.equal(missing.headers.get('www-authenticate'), 'Bearer')
    assert.equal((await call('/one', { headers: { authorization: 'Bearer wrong' } })).status, 401)
    const ok = await call('/one', { headers: { authorization: `Bearer ${API_KEY}` } })
    assert.equal(ok.status, 200)
    assert.deepEqual(ok.body, { answer: 42 })
  })

  it('/two and /three see their contexts\' decorators and need no key', async () => {
    assert.deepEqual(await call('/two').then((r) => [r.status, r.body]), [200, { answer: 42, foo: 'foo' }])
    assert.deepEqual(await call('/three').then((r) => [r.status, r.body]), [200, { answer: 42, foo: 'foo', bar: 'bar' }])
  })

  it('POST /items validates, coerces and fills defaults', async () => {
    const headers = { 'content-type': 'application/json' }
    const created = await call('/items', { method: 'POST', headers, body: JSON.stringify({ name: 'pen', price: '9.5' }) })
    assert.equal(created.status, 201)
    assert.deepEqual(created.body, { name: 'pen', price: 9.5, quantity: 1, tags: [], total: 9.5 })
    const invalid = await call('/items', { method: 'POST', headers, body: JSON.stringify({ price: 3 }) })
    assert.equal(invalid.status, 400)
    assert.deepEqual(invalid.body, { statusCode: 400, code: 'FST_ERR_VALIDATION', error: 'Bad Request', message: "body must have required property 'name'" })
    const negative = await call('/items', { method: 'POST', headers, body: JSON.stringify({ name: 'pen', price: -1 }) })
    assert.equal(negative.status, 400)
  })

  it('GET /users/:id drops the undeclared passwordHash', async () => {
    const user = await call('/users/1')
    assert.equal(user.status, 200)
    assert.deepEqual(user.body, { id: 1, name: 'Ada' })
    assert.equal((await call('/users/abc')).status, 400)
    assert.equal((await call('/users/2')).status, 404)
  })

  it('serves its OpenAPI document (valid, every route) and its docs page', async () => {
    assert.ok(output.includes(`docs: ${base}/documentation`), 'prints the docs page address')
    const res = await call('/documentation/json')
    assert.equal(res.status, 200)
    const doc = res.body
    assert.equal(await schemaErrors(doc), null)
    await parserDereference(doc)
    const operations = Object.entries(doc.paths as Record<string, object>).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`))
    assert.deepEqual(operations, ['POST /items', 'GET /one', 'GET /three', 'GET /two', 'GET /users/{id}'])
    assert.deepEqual(doc.paths['/one'].get.security, [{ bearer: [] }])
    assert.equal(doc.paths['/two'].get.responses['200'].content['application/json'].schema.$ref, '#/components/schemas/View')
    const page = await fetch(base + '/documentation')
    assert.equal(page.status, 200)
    assert.match(await page.text(), /swagger-ui-bundle\.js/)
    assert.equal((await fetch(base + '/documentation/static/swagger-ui-bundle.js')).status, 200)
  })
})
