/**
 * The docs page in a real headless Chromium (Debian package `chromium`, driven by playwright-core;
 * no browser is downloaded): it loads from the local assets only, lists the operations, and "try it
 * out" sends a request that reaches the server. Skipped, with the reason, when Chromium is missing.
 */
import { it } from 'node:test'
import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import trellis from '../../src/index'
import openapi from '../../src/openapi'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']

it('docs page: loads, lists the operations, and "try it out" reaches the server', async (t) => {
  if (!existsSync(CHROMIUM)) {
    t.skip(`Chromium not found at ${CHROMIUM}: install the Debian package \`chromium\` (apt-get install -y chromium) or set CHROMIUM_PATH`)
    return
  }
  const hits: string[] = []
  const app = trellis()
  await app.register(openapi, { openapi: { info: { title: 'Browser check', version: '1.0.0' } }, uiConfig: { tryItOutEnabled: true } })
  app.addSchema({ $id: 'Item', type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } })
  app.get('/items/:id', {
    schema: { tags: ['items'], summary: 'Read an item', params: { type: 'object', properties: { id: { type: 'integer' } } }, response: { 200: { $ref: 'Item#' } } }
  }, async (request) => {
    const { id } = request.params as unknown as { id: number }
    hits.push(`GET /items/${id}`)
    return { id, name: `item ${id}`, secret: 'dropped by the serializer' }
  })
  app.post('/items', { schema: { tags: ['items'], body: { $ref: 'Item#' }, response: { 201: { $ref: 'Item#' } } } }, async (_req, reply) => { reply.code(201); return {} })
  const base = await app.listen({ port: 0, host: '127.0.0.1' })

  const { chromium } = await import('playwright-core')
  const profile = mkdtempSync(join(tmpdir(), 'trellis-chromium-'))
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: FLAGS })
  try {
    const page = context.pages()[0] ?? await context.newPage()
    const requested: string[] = []
    const refused: string[] = []
    page.on('request', (request) => { requested.push(request.url()) })
    page.on('console', (message) => { if (/Refused to|Content Security Policy/i.test(message.text())) refused.push(message.text()) })

    const response = await page.goto(`${base}/documentation`)
    assert.equal(response?.status(), 200)
    await page.waitForSelector('.opblock-summary', { timeout: 20000 })
    const operations = await page.$$eval('.opblock-summary', (nodes) => nodes.map((n) =>
      `${n.querySelector('.opblock-summary-method')?.textContent ?? ''} ${n.querySelector('.opblock-summary-path')?.getAttribute('data-path') ?? n.querySelector('.opblock-summary-path')?.textContent ?? ''}`))
    assert.deepEqual(operations.map((o) => o.replace(/\u200b/g, '')).sort(), ['GET /items/{id}', 'POST /items'])

    // "try it out" on GET /items/{id}
    await page.click('.opblock-get .opblock-summary')
    const block = page.locator('.opblock-get')
    const tryOut = block.locator('button.try-out__btn')
    if (await tryOut.count() > 0 && /try it out/i.test(await tryOut.first().textContent() ?? '')) await tryOut.first().click()
    await block.locator('tr[data-param-name="id"] input').fill('42')
    await block.locator('button.execute').click()
    await block.locator('.live-responses-table tbody .response-col_status').first().waitFor({ timeout: 20000 })
    const status = (await block.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim()
    assert.equal(status, '200')
    assert.deepEqual(hits, ['GET /items/42'], 'the request reached the server')
    const shown = await block.locator('.live-responses-table tbody .microlight, .live-responses-table tbody pre').first().textContent()
    assert.match(shown ?? '', /"item 42"/)
    assert.ok(!/dropped by the serializer/.test(shown ?? ''), 'the response went through the serializer')

    assert.ok(requested.length > 0)
    for (const url of requested) assert.ok(url.startsWith(base) || url.startsWith('data:'), `only local requests (no CDN): ${url}`)
    assert.deepEqual(refused, [], 'nothing blocked by the page\'s Content-Security-Policy')
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
    await app.close()
  }
})
