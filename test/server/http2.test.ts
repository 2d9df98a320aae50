import { test } from 'node:test'
import assert from 'node:assert/strict'
import http2 from 'node:http2'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

function h2request (session: http2.ClientHttp2Session, headers: http2.OutgoingHttpHeaders, body?: string): Promise<{ headers: http2.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = session.request(headers)
    let data = ''
    let responseHeaders: http2.IncomingHttpHeaders = {}
    req.setEncoding('utf8')
    req.on('response', (h) => { responseHeaders = h })
    req.on('data', (chunk: string) => { data += chunk })
    req.on('end', () => resolve({ headers: responseHeaders, body: data }))
    req.on('error', reject)
    req.end(body)
  })
}

test('HTTP/2 (http2: true) over a real socket with the node:http2 client: routes, body parsing, hostname from :authority', async () => {
  const app = trellis({ http2: true })
  app.get('/', async () => ({ hello: 'world' }))
  app.get('/hostname', async (req) => req.hostname)
  app.post('/echo', async (req) => req.body)
  app.get('/boom', async () => { throw new Error('kaboom') })
  const { port } = await listen(app)
  const session = http2.connect(`http://127.0.0.1:${port}`)
  try {
    const res = await h2request(session, { ':path': '/' })
    assert.equal(res.headers[':status'], 200)
    assert.equal(res.headers['content-length'], String(JSON.stringify({ hello: 'world' }).length))
    assert.deepEqual(JSON.parse(res.body), { hello: 'world' })
    const host = await h2request(session, { ':path': '/hostname' })
    assert.equal(host.body, `127.0.0.1:${port}`)
    const echo = await h2request(session, { ':method': 'POST', ':path': '/echo', 'content-type': 'application/json' }, '{"a":1}')
    assert.deepEqual(JSON.parse(echo.body), { a: 1 })
    assert.equal((await h2request(session, { ':path': '/boom' })).headers[':status'], 500)
    const head = await h2request(session, { ':method': 'HEAD', ':path': '/' })
    assert.equal(head.headers[':status'], 200)
    assert.equal(head.body, '')
  } finally {
    session.close()
    await app.close()
  }
})

test('HTTP/2: a method Node does not know answers 404 with message \'Not Found\'', async () => {
  const app = trellis({ http2: true })
  app.get('/', async () => ({ hello: 'world' }))
  const { port } = await listen(app)
  const session = http2.connect(`http://127.0.0.1:${port}`)
  try {
    const res = await h2request(session, { ':method': 'UNKNOWN_METHOD', ':path': '/' })
    assert.equal(res.headers[':status'], 404)
    assert.deepEqual(JSON.parse(res.body), { statusCode: 404, code: 'FST_ERR_NOT_FOUND', error: 'Not Found', message: 'Not Found' })
  } finally {
    session.close()
    await app.close()
  }
})

test('HTTP/2 close(): a request sent right before close() is answered 503, and close() does not wait for the session timeout', async () => {
  const app = trellis({ http2: true })
  app.get('/', async () => ({}))
  const { port } = await listen(app)
  const session = http2.connect(`http://127.0.0.1:${port}`)
  session.on('error', () => {})
  await new Promise((resolve) => session.once('connect', resolve))
  const pending = h2request(session, { ':path': '/' })
  const started = Date.now()
  const closed = app.close()
  const res = await pending
  assert.equal(res.headers[':status'], 503)
  await closed
  assert.ok(Date.now() - started < 5000)
  session.destroy()
})

test('HTTP/2 sessions close after http2SessionTimeout of inactivity; initialConfig shows it', async () => {
  const app = trellis({ http2: true, http2SessionTimeout: 100 })
  assert.equal(app.initialConfig.http2SessionTimeout, 100)
  assert.equal(app.initialConfig.http2, true)
  app.get('/', async () => ({}))
  const { port } = await listen(app)
  const session = http2.connect(`http://127.0.0.1:${port}`)
  session.on('error', () => {})
  await h2request(session, { ':path': '/' })
  await new Promise((resolve) => session.once('close', resolve))
  await app.close()
})

test('an http2 server refuses HTTP/1.1 without https.allowHTTP1 (505); an HTTP/1 server refuses HTTP/2.0 (505)', async () => {
  const app = trellis()
  app.get('/', async () => ({ ok: true }))
  const res = await app.inject({ url: '/' })
  assert.equal(res.statusCode, 200)
  const { port } = await listen(app)
  try {
    const net = await import('node:net')
    const text = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => socket.write('GET / HTTP/2.0\r\nHost: x\r\n\r\n'))
      socket.once('data', (d) => { resolve(d.toString()); socket.destroy() })
    })
    assert.match(text, /^HTTP\/1\.1 505 HTTP Version Not Supported/)
    assert.match(text, /"statusCode":505/)
  } finally { await app.close() }
})

test('rewriteUrl: the router sees the rewritten url (also with inject); a non-string result destroys the request', async () => {
  const seen: string[] = []
  const app = trellis({
    rewriteUrl (req) {
      seen.push(req.url as string)
      return req.url === '/old' ? '/' : req.url === '/broken' ? undefined as never : req.url as string
    }
  })
  app.get('/', async (req) => ({ url: req.url }))
  assert.deepEqual((await app.inject('/old')).json(), { url: '/' })
  assert.equal((await app.inject('/other')).statusCode, 404)
  const { port } = await listen(app)
  try {
    assert.equal((await request(port, { path: '/old' })).statusCode, 200)
    await assert.rejects(request(port, { path: '/broken' }))
  } finally { await app.close() }
  assert.deepEqual(seen, ['/old', '/other', '/old', '/broken'])
})
