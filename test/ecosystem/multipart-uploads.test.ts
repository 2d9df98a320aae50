/**
 * @fastify/multipart 8 (`fastify: '4.x'`) on trellis, over a real socket with fetch's FormData: a
 * file streamed to the handler with its fields, several files, attachFieldsToBody with a body
 * schema, the fileSize limit (413), and a non-multipart request refused (406).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'
import { listen } from '../helpers'

async function build (opts: Record<string, unknown> = {}): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/multipart'), { limits: { fileSize: 1024 }, ...opts })
  return app
}

async function streamText (stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(c as Buffer)
  return Buffer.concat(chunks).toString()
}

test('a streamed file and its fields; several files via request.parts()', async (t) => {
  const app = await build()
  app.post('/one', async (req: any) => {
    const file = await req.file()
    const content = await streamText(file.file)
    return { field: file.fieldname, name: file.filename, type: file.mimetype, content, note: file.fields.note?.value }
  })
  app.post('/many', async (req: any) => {
    const seen: string[] = []
    for await (const part of req.parts()) {
      if (part.type === 'file') seen.push(`${part.filename}=${await streamText(part.file)}`)
      else seen.push(`${part.fieldname}:${part.value}`)
    }
    return seen
  })
  t.after(() => app.close())
  const { url } = await listen(app)
  const form = new FormData()
  form.append('note', 'hello')
  form.append('upload', new Blob(['file body'], { type: 'text/plain' }), 'a.txt')
  const one = await fetch(`${url}/one`, { method: 'POST', body: form })
  assert.equal(one.status, 200)
  assert.deepEqual(await one.json(), { field: 'upload', name: 'a.txt', type: 'text/plain', content: 'file body', note: 'hello' })
  const many = new FormData()
  many.append('x', '1')
  many.append('f1', new Blob(['AAA']), 'one.bin')
  many.append('f2', new Blob(['BBB']), 'two.bin')
  const res = await fetch(`${url}/many`, { method: 'POST', body: many })
  assert.deepEqual(await res.json(), ['x:1', 'one.bin=AAA', 'two.bin=BBB'])
})

test('attachFieldsToBody: fields and files on request.body, validated by the body schema', async (t) => {
  const app = await build({ attachFieldsToBody: 'keyValues' })
  app.post('/kv', {
    schema: { body: { type: 'object', required: ['title'], properties: { title: { type: 'string' }, doc: {} } } }
  }, async (req: any) => ({ title: req.body.title, doc: Buffer.from(req.body.doc).toString() }))
  t.after(() => app.close())
  const { url } = await listen(app)
  const form = new FormData()
  form.append('title', 'T')
  form.append('doc', new Blob(['DOC']), 'd.txt')
  const ok = await fetch(`${url}/kv`, { method: 'POST', body: form })
  assert.equal(ok.status, 200)
  assert.deepEqual(await ok.json(), { title: 'T', doc: 'DOC' })
  const missing = new FormData()
  missing.append('doc', new Blob(['DOC']), 'd.txt')
  const bad = await fetch(`${url}/kv`, { method: 'POST', body: missing })
  assert.equal(bad.status, 400)
  assert.equal(((await bad.json()) as any).code, 'FST_ERR_VALIDATION')
})

test('a file over the size limit is a 413; a JSON request to a multipart route is a 406', async (t) => {
  const app = await build()
  app.post('/buffered', async (req: any) => { const file = await req.file(); await file.toBuffer(); return { ok: true } })
  t.after(() => app.close())
  const { url } = await listen(app)
  const big = new FormData()
  big.append('f', new Blob([Buffer.alloc(5000, 'x')]), 'big.bin')
  const res = await fetch(`${url}/buffered`, { method: 'POST', body: big })
  assert.equal(res.status, 413)
  assert.equal(((await res.json()) as any).code, 'FST_REQ_FILE_TOO_LARGE')
  const json = await fetch(`${url}/buffered`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
  assert.equal(json.status, 406)
  assert.equal(((await json.json()) as any).code, 'FST_INVALID_MULTIPART_CONTENT_TYPE')
})
