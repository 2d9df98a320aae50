/**
 * The Host and framing rules of RFC 9112 / RFC 9110 that node's request parser lets through
 * (src/server/request-framing.ts), over a raw socket on both Fastify lines: each refused form is a
 * 400 framework error (FST_ERR_INVALID_HOST, FST_ERR_ASTERISK_FORM, FST_ERR_INVALID_TRANSFER_ENCODING)
 * with a JSON body, the connection stays usable (closes after an empty Transfer-Encoding), and the
 * valid forms beside each rule are answered by their route. `strictHostAndFraming: false` turns the
 * rules off; `frameworkErrors` sees the errors; they are logged at trace level; HTTP/2 is unaffected.
 */
import { describe, test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import http2 from 'node:http2'
import type { AddressInfo } from 'node:net'
import net from 'node:net'
import trellis from '../../src/index'
import trellisV5 from '../../src/v5'
import { listen, logCollector, parseRaw } from '../helpers'

interface Exchange { statusCode: number, headers: Record<string, string>, body: string, closed: boolean }

/**
 * Sends `first` on a new connection and reads its response; then, unless the server closed the
 * connection, a valid request on the same connection (`next`, its status; -1 when none came).
 */
function exchange (port: number, first: string | Buffer): Promise<Exchange & { next: number }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let data = Buffer.alloc(0)
    let answer: Exchange | undefined
    let closed = false
    const head = first.toString('latin1').startsWith('HEAD ')
    const timer = setTimeout(() => { socket.destroy() }, 3000)
    const complete = (text: string): number => {
      const end = text.indexOf('\r\n\r\n')
      if (end === -1) return -1
      const length = head && answer === undefined ? 0 : Number(/\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1] ?? 0)
      return text.length >= end + 4 + length ? end + 4 + length : -1
    }
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk])
      const text = data.toString('latin1')
      const end = complete(text)
      if (end === -1) return
      if (answer === undefined) {
        answer = { ...parseRaw(text.slice(0, end)), closed: false }
        data = data.subarray(end)
        // the connection must be kept or closed by the server: give it a moment, then try it
        setTimeout(() => { if (!closed) socket.write('GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n') }, 50)
      } else {
        clearTimeout(timer)
        socket.destroy()
        resolve({ ...answer, next: parseRaw(text.slice(0, end)).statusCode })
      }
    })
    socket.on('close', () => {
      closed = true
      clearTimeout(timer)
      if (answer === undefined) { reject(new Error(`no complete answer: ${JSON.stringify(data.toString('latin1'))}`)); return }
      resolve({ ...answer, closed: true, next: -1 })
    })
    socket.on('error', (err: NodeJS.ErrnoException) => { if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err) })
    socket.write(first)
  })
}

type Factory = (opts?: any) => any

function build (factory: Factory, opts: Record<string, unknown> = {}): any {
  const app = factory(opts)
  app.get('/hello', async (req: any) => ({ host: req.headers.host ?? null, hostname: req.hostname }))
  app.post('/echo', async (req: any) => ({ body: req.body }))
  app.options('*', async (req: any) => ({ options: req.url }))
  return app
}

const get = (host: string | null, version = '1.1', target = '/hello'): string =>
  `GET ${target} HTTP/${version}\r\n${host === null ? '' : `Host: ${host}\r\n`}\r\n`

/** [name, request, code]: each is refused with a 400 of that code. */
const REFUSED: Array<[string, string | Buffer, string]> = [
  ['two Host lines with equal values', 'GET /hello HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n', 'FST_ERR_INVALID_HOST'],
  ['two Host lines with different values', 'GET /hello HTTP/1.1\r\nHost: a.example\r\nhost: b.example\r\n\r\n', 'FST_ERR_INVALID_HOST'],
  ['two Host lines on HTTP/1.0', 'GET /hello HTTP/1.0\r\nHost: a.example\r\nHost: a.example\r\n\r\n', 'FST_ERR_INVALID_HOST'],
  ['userinfo', get('user@a.example'), 'FST_ERR_INVALID_HOST'],
  ['userinfo with a password and port', get('user:pw@a.example:80'), 'FST_ERR_INVALID_HOST'],
  ['a path', get('a.example/path'), 'FST_ERR_INVALID_HOST'],
  ['a query', get('a.example?x=1'), 'FST_ERR_INVALID_HOST'],
  ['a comma-joined list', get('a.example, b.example'), 'FST_ERR_INVALID_HOST'],
  ['a comma-joined list without space', get('a.example,b.example'), 'FST_ERR_INVALID_HOST'],
  ['a non-numeric port', get('a.example:http'), 'FST_ERR_INVALID_HOST'],
  ['a port above 65535', get('a.example:65536'), 'FST_ERR_INVALID_HOST'],
  ['a six-digit port', get('a.example:000080'), 'FST_ERR_INVALID_HOST'],
  ['two ports', get('a.example:80:80'), 'FST_ERR_INVALID_HOST'],
  ['an unclosed IPv6 literal', get('[::1:3000'), 'FST_ERR_INVALID_HOST'],
  ['an IPv6 literal that is no address', get('[not-an-address]:3000'), 'FST_ERR_INVALID_HOST'],
  ['an unbracketed IPv6 address', get('::1'), 'FST_ERR_INVALID_HOST'],
  ['junk after an IPv6 literal', get('[::1]x'), 'FST_ERR_INVALID_HOST'],
  ['a bad percent-encoding', get('a%zz.example'), 'FST_ERR_INVALID_HOST'],
  ['raw UTF-8 (not punycode)', Buffer.from(get('bücher.example'), 'utf8'), 'FST_ERR_INVALID_HOST'],
  ['HTTP/1.1 origin-form with an empty Host', get(''), 'FST_ERR_INVALID_HOST'],
  ['HTTP/1.1 origin-form with a Host of a port only', get(':80'), 'FST_ERR_INVALID_HOST'],
  ['HTTP/1.1 OPTIONS * with an empty Host', 'OPTIONS * HTTP/1.1\r\nHost: \r\n\r\n', 'FST_ERR_INVALID_HOST'],
  ['GET *', get('localhost', '1.1', '*'), 'FST_ERR_ASTERISK_FORM'],
  ['HEAD *', 'HEAD * HTTP/1.1\r\nHost: localhost\r\n\r\n', 'FST_ERR_ASTERISK_FORM'],
  ['POST * with a body', 'POST * HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}', 'FST_ERR_ASTERISK_FORM'],
  ['DELETE * on HTTP/1.0', 'DELETE * HTTP/1.0\r\n\r\n', 'FST_ERR_ASTERISK_FORM']
]

/** An empty Transfer-Encoding: the body's framing is unknown, so the connection closes after the 400. */
const TE_REFUSED: Array<[string, string]> = [
  ['empty, no Content-Length', 'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: \r\n\r\n{}'],
  ['empty, with Content-Length', 'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: \r\nContent-Length: 2\r\n\r\n{}'],
  ['whitespace only, with Content-Length', 'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding:   \t \r\nContent-Length: 2\r\n\r\n{}'],
  ['empty, on a GET', 'GET /hello HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: \r\n\r\n']
]

/**
 * Whether this Node line's own parser refuses an empty Transfer-Encoding before any application sees
 * the request (llhttp in Node 24 and later: its client-error 400, connection closed; Node 20 and 22
 * let it through, and trellis's rule answers). Asked of a bare node:http server.
 */
let parserRefusal: Promise<boolean> | undefined
function nodeRefusesEmptyTransferEncoding (): Promise<boolean> {
  parserRefusal ??= (async () => {
    const server = http.createServer((req, res) => { req.resume(); req.on('end', () => res.end('ok')) })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      return (await exchange((server.address() as AddressInfo).port, TE_REFUSED[1][1])).statusCode === 400
    } finally { server.close() }
  })()
  return parserRefusal
}

/** [name, request, status, expected body (partial)]: the valid forms beside each rule. */
const ACCEPTED: Array<[string, string | Buffer, number, Record<string, unknown>]> = [
  ['a name', get('a.example'), 200, { host: 'a.example', hostname: 'a.example' }],
  ['a name and port', get('a.example:3000'), 200, { host: 'a.example:3000' }],
  ['the largest port', get('a.example:65535'), 200, { host: 'a.example:65535' }],
  ['an empty port (RFC 3986: port = *DIGIT)', get('a.example:'), 200, { host: 'a.example:' }],
  ['an IPv4 address and port', get('127.0.0.1:3000'), 200, { host: '127.0.0.1:3000' }],
  ['an IPv6 literal and port', get('[::1]:3000'), 200, { host: '[::1]:3000' }],
  ['an IPv6 literal', get('[2001:db8::1]'), 200, { host: '[2001:db8::1]' }],
  ['an IPv4-mapped IPv6 literal', get('[::ffff:127.0.0.1]:80'), 200, { host: '[::ffff:127.0.0.1]:80' }],
  ['an IPvFuture literal', get('[v1.fe80::a+en1]'), 200, { host: '[v1.fe80::a+en1]' }],
  ['an IDN host in punycode', get('xn--bcher-kva.example'), 200, { host: 'xn--bcher-kva.example' }],
  ['an IDN host percent-encoded', get('b%C3%BCcher.example:8080'), 200, { host: 'b%C3%BCcher.example:8080' }],
  ['sub-delims and unreserved bytes', get("a-b_c~d!$&'()*+;=.example"), 200, { host: "a-b_c~d!$&'()*+;=.example" }],
  ['upper case', get('A.EXAMPLE:80'), 200, { host: 'A.EXAMPLE:80' }],
  ['lower-case header name', 'GET /hello HTTP/1.1\r\nhost: a.example\r\n\r\n', 200, { host: 'a.example' }],
  ['absolute-form with a matching Host', get('a.example:3000', '1.1', 'http://a.example:3000/hello'), 200, { host: 'a.example:3000' }],
  ['absolute-form with an empty Host (the target names the authority)', get('', '1.1', 'http://a.example/hello'), 200, { host: '' }],
  ['HTTP/1.0 without Host', get(null, '1.0'), 200, { host: null }],
  ['HTTP/1.0 with an empty Host', get('', '1.0'), 200, { host: '' }],
  ['OPTIONS *', 'OPTIONS * HTTP/1.1\r\nHost: localhost\r\n\r\n', 200, { options: '*' }],
  ['OPTIONS * on HTTP/1.0', 'OPTIONS * HTTP/1.0\r\n\r\n', 200, { options: '*' }],
  ['OPTIONS on a path', 'OPTIONS /hello HTTP/1.1\r\nHost: localhost\r\n\r\n', 200, { options: '/hello' }],
  ['a chunked body', 'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n', 200, { body: {} }],
  ['a Content-Length body', 'POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{"a":1}\n', 200, { body: { a: 1 } }]
]

for (const [line, factory] of [['v4', trellis], ['v5', trellisV5]] as Array<[string, Factory]>) {
  describe(`Host and framing rules over a raw socket (${line} line)`, () => {
    for (const [name, raw, code] of REFUSED) {
      test(`refused: ${name} -> 400 ${code}, the connection still serves`, async () => {
        const app = build(factory)
        const { port } = await listen(app)
        try {
          const res = await exchange(port, raw)
          assert.equal(res.statusCode, 400, name)
          assert.match(res.headers['content-type'], /^application\/json/)
          if (raw.toString('latin1').startsWith('HEAD ')) {
            assert.equal(res.body, '', 'HEAD: the headers of the JSON answer, no body')
          } else {
            assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.body))
            const body = JSON.parse(res.body)
            assert.deepEqual(Object.keys(body), ['error', 'code', 'message', 'statusCode'])
            assert.equal(body.error, 'Bad Request')
            assert.equal(body.code, code)
            assert.equal(body.statusCode, 400)
          }
          if (raw.toString('latin1').split('\r\n')[0].endsWith('HTTP/1.0')) {
            assert.equal(res.closed, true, 'HTTP/1.0 without keep-alive: closed after the answer')
          } else {
            assert.equal(res.closed, false, 'the framing is known: the connection stays open')
            assert.equal(res.next, 200, 'the next request on the connection is answered')
          }
        } finally { await app.close() }
      })
    }

    for (const [name, raw] of TE_REFUSED) {
      test(`refused: Transfer-Encoding ${name} -> 400, Connection: close, the connection closes`, async () => {
        const app = build(factory)
        const { port } = await listen(app)
        try {
          const res = await exchange(port, raw)
          assert.equal(res.statusCode, 400)
          const body = JSON.parse(res.body)
          if (await nodeRefusesEmptyTransferEncoding()) {
            // node's parser refused it first: Fastify's client-error answer, then the connection closes
            assert.deepEqual(body, { error: 'Bad Request', message: 'Client Error', statusCode: 400 })
          } else {
            assert.equal(body.code, 'FST_ERR_INVALID_TRANSFER_ENCODING')
            assert.equal(res.headers.connection, 'close')
          }
          assert.equal(res.closed, true)
        } finally { await app.close() }
      })
    }

    test('accepted: the valid forms beside each rule reach their route', async () => {
      const app = build(factory)
      const { port } = await listen(app)
      try {
        for (const [name, raw, status, expected] of ACCEPTED) {
          const res = await exchange(port, raw)
          assert.equal(res.statusCode, status, `${name}: ${res.body}`)
          const body = JSON.parse(res.body)
          for (const [key, value] of Object.entries(expected)) assert.deepEqual(body[key], value, name)
        }
      } finally { await app.close() }
    })

    test('strictHostAndFraming: false lets each refused form through to routing', async () => {
      const app = build(factory, { strictHostAndFraming: false })
      const { port } = await listen(app)
      try {
        assert.equal(app.initialConfig.strictHostAndFraming, undefined)
        assert.equal((await exchange(port, REFUSED[0][1])).statusCode, 200)
        assert.equal((await exchange(port, get('user@a.example'))).statusCode, 200)
        assert.equal((await exchange(port, get(''))).statusCode, 200)
        assert.equal((await exchange(port, get('localhost', '1.1', '*'))).statusCode, 404)
        // where node's parser refuses it (Node 24 and later), turning the rules off cannot let it through
        assert.equal((await exchange(port, TE_REFUSED[1][1])).statusCode, await nodeRefusesEmptyTransferEncoding() ? 400 : 200)
      } finally { await app.close() }
    })

    test('http: { requireHostHeader: false } serves requests that name no host; the other rules still apply', async () => {
      const app = build(factory, { http: { requireHostHeader: false } })
      const { port } = await listen(app)
      try {
        assert.equal((await exchange(port, 'GET /hello HTTP/1.1\r\n\r\n')).statusCode, 200)
        assert.equal((await exchange(port, get(''))).statusCode, 200)
        assert.equal((await exchange(port, get('user@a.example'))).statusCode, 400)
        assert.equal((await exchange(port, REFUSED[0][1])).statusCode, 400)
      } finally { await app.close() }
    })

    test('strictHostAndFraming must be a boolean', () => {
      assert.throws(() => factory({ strictHostAndFraming: 'yes' }), { code: 'FST_ERR_INIT_OPTS_INVALID' })
    })

    test('frameworkErrors receives each error with the request and reply, and answers', async () => {
      const seen: Array<{ code: string, statusCode: number, url: string }> = []
      const app = build(factory, {
        frameworkErrors: (error: any, request: any, reply: any) => {
          seen.push({ code: error.code, statusCode: error.statusCode, url: request.url })
          reply.code(400).send({ mine: error.code })
        }
      })
      const { port } = await listen(app)
      try {
        // an empty Transfer-Encoding node's parser refuses (Node 24 and later) never reaches trellis
        const ruleSeesTE = !(await nodeRefusesEmptyTransferEncoding())
        for (const raw of [REFUSED[0][1], get('a/b'), get('localhost', '1.1', '*'), ...(ruleSeesTE ? [TE_REFUSED[1][1]] : [])]) {
          const res = await exchange(port, raw)
          assert.equal(res.statusCode, 400)
          assert.equal(JSON.parse(res.body).mine, seen[seen.length - 1].code)
        }
        assert.deepEqual(seen, [
          { code: 'FST_ERR_INVALID_HOST', statusCode: 400, url: '/hello' },
          { code: 'FST_ERR_INVALID_HOST', statusCode: 400, url: '/hello' },
          { code: 'FST_ERR_ASTERISK_FORM', statusCode: 400, url: '*' },
          ...(ruleSeesTE ? [{ code: 'FST_ERR_INVALID_TRANSFER_ENCODING', statusCode: 400, url: '/echo' }] : [])
        ])
        // the connection still closes after an empty Transfer-Encoding, whoever answers
        assert.equal((await exchange(port, TE_REFUSED[0][1])).closed, true)
      } finally { await app.close() }
    })

    test('logged at trace level (as Fastify logs client errors), with the error', async () => {
      const { stream, lines } = logCollector()
      const app = build(factory, { logger: { level: 'trace', stream } })
      const { port } = await listen(app)
      try {
        await exchange(port, get('user@a.example'))
        const line = lines.find((l) => l.msg === 'client error')
        assert.ok(line !== undefined, JSON.stringify(lines))
        assert.equal(line.level, 10)
        assert.equal(line.err.code, 'FST_ERR_INVALID_HOST')
        assert.ok(!lines.some((l) => l.level >= 40), 'nothing at warn or above')
      } finally { await app.close() }
    })

    test('inject is checked too (a Host given in the headers)', async () => {
      const app = build(factory)
      const res = await app.inject({ url: '/hello', headers: { host: 'a.example/path' } })
      assert.equal(res.statusCode, 400)
      assert.equal(res.json().code, 'FST_ERR_INVALID_HOST')
      assert.equal((await app.inject({ url: '/hello', headers: { host: '[::1]:3000' } })).statusCode, 200)
    })

    test('HTTP/2 is not affected: :authority instead of Host, OPTIONS * and a v6 authority answered', async () => {
      const app = build(factory, { http2: true })
      const { port } = await listen(app)
      const session = http2.connect(`http://127.0.0.1:${port}`)
      try {
        const ask = (headers: http2.OutgoingHttpHeaders): Promise<{ status: number, body: string }> => new Promise((resolve, reject) => {
          const req = session.request(headers)
          let body = ''
          let status = 0
          req.setEncoding('utf8')
          req.on('response', (h) => { status = Number(h[':status']) })
          req.on('data', (c: string) => { body += c })
          req.on('end', () => resolve({ status, body }))
          req.on('error', reject)
          req.end()
        })
        const plain = await ask({ ':path': '/hello' })
        assert.equal(plain.status, 200)
        assert.match(JSON.parse(plain.body).hostname, /^127\.0\.0\.1(:\d+)?$/)
        const v6 = await ask({ ':path': '/hello', ':authority': '[::1]:3000' })
        assert.equal(v6.status, 200)
        assert.match(JSON.parse(v6.body).hostname, /^\[::1\](:3000)?$/)
        const star = await ask({ ':method': 'OPTIONS', ':path': '*' })
        assert.equal(star.status, 200, star.body)
      } finally {
        session.close()
        await app.close()
      }
    })
  })
}
