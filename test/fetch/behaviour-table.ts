// One table of behaviour cases, run three ways by ./three-ways.test.ts: over inject, over a real
// socket and through app.fetch. Each case builds its application, sends one request and checks the
// answer (status, headers without the connection's own, body) and what the application saw; the
// runner also checks that the three answers are the same, so the three ways cannot drift apart.
import assert from 'node:assert/strict'
import { Readable, Transform } from 'node:stream'

export type Line = 4 | 5

export interface Answer {
  status: number
  /** Lowercased names; set-cookie always a list; date, connection, keep-alive and transfer-encoding left out. */
  headers: Record<string, string | string[]>
  body: string
}

export interface Sent {
  method?: string
  url: string
  headers?: Record<string, string>
  body?: string | Buffer
}

/** What `app.fetch` answers to a sent case: status, header entries (set-cookie as one list), body. */
export async function sendThroughFetch (app: { fetch: (request: Request) => Promise<Response> }, sent: Sent): Promise<{ status: number, entries: Array<[string, string | string[]]>, body: string }> {
  const host = sent.headers?.host ?? 'localhost'
  const init: RequestInit = { method: sent.method ?? 'GET', headers: sent.headers }
  if (sent.body !== undefined) {
    init.body = sent.body
    // a Request body made in-process has no length header; a client over a socket sends one
    init.headers = { 'content-length': String(Buffer.byteLength(sent.body)), ...sent.headers }
  }
  const res = await app.fetch(new Request(`http://${host}${sent.url}`, init))
  const entries: Array<[string, string | string[]]> = []
  res.headers.forEach((value, name) => { if (name !== 'set-cookie') entries.push([name, value]) })
  const cookies = res.headers.getSetCookie()
  if (cookies.length > 0) entries.push(['set-cookie', cookies])
  return { status: res.status, entries, body: await res.text() }
}

export interface BehaviourCase {
  name: string
  /** Lines the case applies to (both by default). */
  lines?: Line[]
  /** Builds the application; `seen` collects what hooks and handlers observed. */
  setup: (app: any, seen: unknown[], line: Line) => void
  request: Sent
  check: (answer: Answer, seen: unknown[], line: Line) => void
}

const json = (answer: Answer): any => JSON.parse(answer.body)

const itemSchema = {
  body: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, qty: { type: 'integer', minimum: 1 } } },
  response: { 200: { type: 'object', properties: { name: { type: 'string' }, qty: { type: 'integer' } } } }
}

export const CASES: BehaviourCase[] = [
  {
    name: 'GET answers JSON with its length and type',
    setup: (app) => { app.get('/', async () => ({ hello: 'world' })) },
    request: { url: '/' },
    check: (a) => {
      assert.equal(a.status, 200)
      assert.equal(a.headers['content-type'], 'application/json; charset=utf-8')
      assert.equal(a.headers['content-length'], '17')
      assert.deepEqual(json(a), { hello: 'world' })
    }
  },
  {
    name: 'params, query, url, method, hostname and protocol as the application reads them',
    setup: (app, _seen, line) => {
      app.get('/users/:id', async (req: any) => ({
        id: req.params.id,
        q: req.query.q,
        url: req.url,
        method: req.method,
        protocol: req.protocol,
        host: line === 5 ? req.host : req.hostname,
        rawUrl: req.raw.url
      }))
    },
    request: { url: '/users/42?q=a%20b', headers: { host: 'example.test:8080' } },
    check: (a) => {
      assert.equal(a.status, 200)
      assert.deepEqual(json(a), { id: '42', q: 'a b', url: '/users/42?q=a%20b', method: 'GET', protocol: 'http', host: 'example.test:8080', rawUrl: '/users/42?q=a%20b' })
    }
  },
  {
    name: 'no route: the default 404',
    setup: (app) => { app.get('/', async () => 'x') },
    request: { url: '/nope' },
    check: (a) => {
      assert.equal(a.status, 404)
      assert.deepEqual(json(a), { message: 'Route GET:/nope not found', error: 'Not Found', statusCode: 404 })
    }
  },
  {
    name: 'a 404 handler of a prefix (encapsulated)',
    setup: (app) => {
      app.setNotFoundHandler((_req: any, reply: any) => { reply.code(404).send({ where: 'root' }) })
      app.register(async (child: any) => {
        child.setNotFoundHandler((_req: any, reply: any) => { reply.code(404).send({ where: 'api' }) })
      }, { prefix: '/api' })
    },
    request: { url: '/api/missing' },
    check: (a) => { assert.equal(a.status, 404); assert.deepEqual(json(a), { where: 'api' }) }
  },
  {
    name: 'a valid JSON body is parsed, validated and the reply serialized by the response schema',
    setup: (app) => { app.post('/items', { schema: itemSchema }, async (req: any) => ({ ...req.body, secret: 's3cr3t' })) },
    request: { method: 'POST', url: '/items', headers: { 'content-type': 'application/json' }, body: '{"name":"pen","qty":2}' },
    check: (a) => { assert.equal(a.status, 200); assert.deepEqual(json(a), { name: 'pen', qty: 2 }) }
  },
  {
    name: 'a body failing validation is a 400',
    setup: (app) => { app.post('/items', { schema: itemSchema }, async (req: any) => req.body) },
    request: { method: 'POST', url: '/items', headers: { 'content-type': 'application/json' }, body: '{"qty":0}' },
    check: (a) => {
      assert.equal(a.status, 400)
      const body = json(a)
      assert.equal(body.error, 'Bad Request')
      assert.match(body.message, /body must have required property 'name'/)
    }
  },
  {
    name: 'malformed JSON is a 400',
    setup: (app) => { app.post('/', async (req: any) => req.body) },
    request: { method: 'POST', url: '/', headers: { 'content-type': 'application/json' }, body: '{"a":' },
    check: (a, _seen, line) => {
      assert.equal(a.status, 400)
      // Fastify 4 answers the parser's error as is; Fastify 5 with its own code
      if (line === 5) assert.equal(json(a).code, 'FST_ERR_CTP_INVALID_JSON_BODY')
      else assert.deepEqual(json(a), { statusCode: 400, error: 'Bad Request', message: 'Unexpected end of JSON input' })
    }
  },
  {
    name: 'an unknown content type is a 415',
    setup: (app) => { app.post('/', async (req: any) => req.body) },
    request: { method: 'POST', url: '/', headers: { 'content-type': 'application/x-nope' }, body: 'zzz' },
    check: (a) => { assert.equal(a.status, 415); assert.equal(json(a).code, 'FST_ERR_CTP_INVALID_MEDIA_TYPE') }
  },
  {
    name: 'a body over bodyLimit is a 413',
    setup: (app) => { app.post('/', { bodyLimit: 10 }, async (req: any) => req.body) },
    request: { method: 'POST', url: '/', headers: { 'content-type': 'text/plain' }, body: 'x'.repeat(100) },
    check: (a) => { assert.equal(a.status, 413); assert.equal(json(a).code, 'FST_ERR_CTP_BODY_TOO_LARGE') }
  },
  {
    name: 'a content-type parser of the application',
    setup: (app) => {
      app.addContentTypeParser('text/csv', { parseAs: 'string' }, (_req: any, body: string, done: any) => { done(null, body.split(',')) })
      app.post('/', async (req: any) => ({ cells: req.body }))
    },
    request: { method: 'POST', url: '/', headers: { 'content-type': 'text/csv' }, body: 'a,b,c' },
    check: (a) => { assert.equal(a.status, 200); assert.deepEqual(json(a), { cells: ['a', 'b', 'c'] }) }
  },
  {
    name: 'preParsing sees a Node Readable and may replace it',
    setup: (app, seen) => {
      app.addHook('preParsing', async (_req: any, _reply: any, payload: any) => {
        seen.push(typeof payload.pipe === 'function' && typeof payload.on === 'function')
        return payload.pipe(new Transform({ transform (chunk, _enc, cb) { cb(null, String(chunk).toUpperCase()) } }))
      })
      app.post('/', async (req: any) => ({ got: req.body }))
    },
    request: { method: 'POST', url: '/', headers: { 'content-type': 'text/plain' }, body: 'shout' },
    check: (a, seen) => { assert.deepEqual(json(a), { got: 'SHOUT' }); assert.deepEqual(seen, [true]) }
  },
  {
    name: 'hooks run in order and onSend may change the payload; onResponse runs after',
    setup: (app, seen) => {
      app.addHook('onRequest', async (req: any, reply: any) => { seen.push('onRequest'); reply.header('x-on-request', '1') })
      app.addHook('preValidation', async () => { seen.push('preValidation') })
      app.addHook('preHandler', async () => { seen.push('preHandler') })
      app.addHook('preSerialization', async (_req: any, _reply: any, payload: any) => { seen.push('preSerialization'); return { ...payload, added: true } })
      app.addHook('onSend', async (_req: any, _reply: any, payload: string) => { seen.push('onSend'); return payload.replace('1', '2') })
      app.addHook('onResponse', async (_req: any, reply: any) => { seen.push(`onResponse ${reply.statusCode}`) })
      app.get('/', async () => { seen.push('handler'); return { n: 1 } })
    },
    request: { url: '/' },
    check: (a, seen) => {
      assert.equal(a.headers['x-on-request'], '1')
      assert.deepEqual(json(a), { n: 2, added: true })
      assert.deepEqual(seen, ['onRequest', 'preValidation', 'preHandler', 'handler', 'preSerialization', 'onSend', 'onResponse 200'])
    }
  },
  {
    name: 'an error handler of a plugin (encapsulated) answers its errors',
    setup: (app) => {
      app.register(async (child: any) => {
        child.setErrorHandler((err: any, _req: any, reply: any) => { reply.code(418).send({ handled: err.message }) })
        child.get('/inner', async () => { throw new Error('inner boom') })
      })
      app.get('/outer', async () => { throw new Error('outer boom') })
    },
    request: { url: '/inner' },
    check: (a) => { assert.equal(a.status, 418); assert.deepEqual(json(a), { handled: 'inner boom' }) }
  },
  {
    name: 'the default error handler: an error with a status code',
    setup: (app) => {
      app.get('/', async () => { throw Object.assign(new Error('nope'), { statusCode: 403 }) })
    },
    request: { url: '/' },
    check: (a) => { assert.equal(a.status, 403); assert.deepEqual(json(a), { statusCode: 403, error: 'Forbidden', message: 'nope' }) }
  },
  {
    name: 'HEAD of a GET route: the headers of GET, no body',
    setup: (app) => { app.get('/', async () => ({ hello: 'world' })) },
    request: { method: 'HEAD', url: '/' },
    check: (a) => {
      assert.equal(a.status, 200)
      assert.equal(a.headers['content-length'], '17')
      assert.equal(a.headers['content-type'], 'application/json; charset=utf-8')
      assert.equal(a.body, '')
    }
  },
  {
    name: '204 sends no body, no content-type, no content-length',
    setup: (app) => { app.get('/', async (_req: any, reply: any) => { reply.code(204); return { dropped: true } }) },
    request: { url: '/' },
    check: (a) => {
      assert.equal(a.status, 204)
      assert.equal(a.body, '')
      assert.equal(a.headers['content-type'], undefined)
      assert.equal(a.headers['content-length'], undefined)
    }
  },
  {
    name: '304 sends no body',
    setup: (app) => { app.get('/', (_req: any, reply: any) => { reply.code(304).header('etag', '"v1"').send() }) },
    request: { url: '/', headers: { 'if-none-match': '"v1"' } },
    check: (a) => { assert.equal(a.status, 304); assert.equal(a.body, ''); assert.equal(a.headers.etag, '"v1"') }
  },
  {
    name: 'several set-cookie values stay separate',
    setup: (app) => { app.get('/', (_req: any, reply: any) => { reply.header('set-cookie', 'a=1; Path=/').header('set-cookie', 'b=2, c=3').send('ok') }) },
    request: { url: '/' },
    check: (a) => { assert.deepEqual(a.headers['set-cookie'], ['a=1; Path=/', 'b=2, c=3']); assert.equal(a.body, 'ok') }
  },
  {
    name: 'a string is text/plain',
    setup: (app) => { app.get('/', async () => 'héllo') },
    request: { url: '/' },
    check: (a) => {
      assert.equal(a.headers['content-type'], 'text/plain; charset=utf-8')
      assert.equal(a.headers['content-length'], '6')
      assert.equal(a.body, 'héllo')
    }
  },
  {
    name: 'a Buffer is application/octet-stream',
    setup: (app) => { app.get('/', async () => Buffer.from('bytes')) },
    request: { url: '/' },
    check: (a) => {
      assert.equal(a.headers['content-type'], 'application/octet-stream')
      assert.equal(a.headers['content-length'], '5')
      assert.equal(a.body, 'bytes')
    }
  },
  {
    name: 'a Node Readable streams out',
    setup: (app) => { app.get('/', (_req: any, reply: any) => { reply.type('text/plain').send(Readable.from(['one ', 'two ', 'three'])) }) },
    request: { url: '/' },
    check: (a) => { assert.equal(a.status, 200); assert.equal(a.body, 'one two three'); assert.equal(a.headers['content-type'], 'text/plain') }
  },
  {
    name: 'a web ReadableStream streams out',
    setup: (app) => {
      app.get('/', (_req: any, reply: any) => {
        const chunks = ['al', 'pha']
        reply.type('text/plain').send(new ReadableStream({ pull (c) { const n = chunks.shift(); if (n === undefined) c.close(); else c.enqueue(new TextEncoder().encode(n)) } }))
      })
    },
    request: { url: '/' },
    check: (a) => { assert.equal(a.body, 'alpha') }
  },
  {
    name: 'a fetch Response from the handler gives status, headers and body',
    setup: (app) => { app.get('/', async () => new Response('made', { status: 201, headers: { 'x-made': 'yes', 'content-type': 'text/x-made' } })) },
    request: { url: '/' },
    check: (a) => {
      assert.equal(a.status, 201)
      assert.equal(a.headers['x-made'], 'yes')
      assert.equal(a.headers['content-type'], 'text/x-made')
      assert.equal(a.body, 'made')
    }
  },
  {
    name: 'a redirect',
    setup: (app) => { app.get('/', (_req: any, reply: any) => { reply.redirect('/there') }) },
    request: { url: '/' },
    check: (a) => { assert.equal(a.status, 302); assert.equal(a.headers.location, '/there') }
  },
  {
    name: 'a plugin that reads request.raw and writes on reply.raw',
    setup: (app) => {
      app.addHook('onRequest', (req: any, reply: any, done: any) => {
        reply.raw.setHeader('x-raw-method', req.raw.method)
        reply.raw.setHeader('x-raw-agent', String(req.raw.headers['user-agent']))
        done()
      })
      app.get('/', async () => 'ok')
    },
    request: { url: '/', headers: { 'user-agent': 'table/1' } },
    check: (a) => { assert.equal(a.headers['x-raw-method'], 'GET'); assert.equal(a.headers['x-raw-agent'], 'table/1'); assert.equal(a.body, 'ok') }
  },
  {
    name: 'a hijacked reply written on reply.raw',
    setup: (app) => {
      app.get('/', (_req: any, reply: any) => {
        reply.hijack()
        reply.raw.writeHead(207, { 'content-type': 'text/plain', 'x-hijacked': '1' })
        reply.raw.write('part one, ')
        setImmediate(() => reply.raw.end('part two'))
      })
    },
    request: { url: '/' },
    check: (a) => { assert.equal(a.status, 207); assert.equal(a.headers['x-hijacked'], '1'); assert.equal(a.body, 'part one, part two') }
  },
  {
    name: 'reply.raw\'s header methods as node:http has them: append, remove, a status message, then headers sent',
    setup: (app, seen) => {
      app.get('/', (_req: any, reply: any) => {
        reply.hijack()
        const res = reply.raw
        res.setHeader('x-list', 'a')
        res.appendHeader('x-list', 'b')
        res.appendHeader('x-list', ['c', 'd'])
        res.appendHeader('x-new', 'n')
        res.setHeader('x-gone', 'g')
        res.removeHeader('x-gone')
        seen.push(res.getHeader('x-list'), res.getHeader('x-gone') ?? null, res.headersSent)
        res.writeHead(201, 'Made Here', { 'content-type': 'text/plain', 'x-head': ['1', '2'] })
        seen.push(res.headersSent, res.statusMessage)
        for (const late of [() => res.setHeader('x-late', '1'), () => res.removeHeader('x-list'), () => res.writeHead(500)]) {
          try { late(); seen.push('no error') } catch (err: any) { seen.push(err.code) }
        }
        res.end('made', () => { seen.push('end callback') })
        seen.push(res.writableEnded)
      })
    },
    request: { url: '/' },
    check: (a, seen) => {
      assert.equal(a.status, 201)
      assert.equal(a.headers['x-list'], 'a, b, c, d')
      assert.equal(a.headers['x-new'], 'n')
      assert.equal(a.headers['x-head'], '1, 2')
      assert.equal(a.headers['x-gone'], undefined)
      assert.equal(a.body, 'made')
      assert.deepEqual(seen.slice(0, 5), [['a', 'b', 'c', 'd'], null, false, true, 'Made Here'])
      assert.deepEqual(seen.slice(5, 8), ['ERR_HTTP_HEADERS_SENT', 'ERR_HTTP_HEADERS_SENT', 'ERR_HTTP_HEADERS_SENT'])
      assert.equal(seen[8], true)
    }
  },
  {
    name: 'reply.raw.writeHead takes its headers as a flat list, as node:http does',
    setup: (app) => {
      app.get('/', (_req: any, reply: any) => {
        reply.hijack()
        reply.raw.writeHead(200, ['content-type', 'text/plain', 'x-flat', 'yes'])
        reply.raw.end('flat')
      })
    },
    request: { url: '/' },
    check: (a) => { assert.equal(a.status, 200); assert.equal(a.headers['x-flat'], 'yes'); assert.equal(a.headers['content-type'], 'text/plain'); assert.equal(a.body, 'flat') }
  },
  {
    name: 'a body of 1 MiB in many chunks is read whole',
    setup: (app) => {
      app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer', bodyLimit: 2 * 1024 * 1024 }, (_req: any, body: Buffer, done: any) => { done(null, body) })
      app.post('/', async (req: any) => ({ length: req.body.length, last: req.body[req.body.length - 1] }))
    },
    request: { method: 'POST', url: '/', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.alloc(1024 * 1024, 7) },
    check: (a) => { assert.equal(a.status, 200); assert.deepEqual(json(a), { length: 1024 * 1024, last: 7 }) }
  },
  {
    name: 'a large streamed answer arrives whole',
    setup: (app) => {
      app.get('/', (_req: any, reply: any) => {
        let n = 0
        reply.type('application/octet-stream').send(new Readable({ read () { this.push(n++ < 64 ? Buffer.alloc(16 * 1024, 97) : null) } }))
      })
    },
    request: { url: '/' },
    check: (a) => { assert.equal(a.body.length, 64 * 16 * 1024) }
  },
  {
    name: 'a reply header with a newline is a 500, not a crash',
    setup: (app) => { app.get('/', (_req: any, reply: any) => { reply.header('x-bad', 'a\nb').send('x') }) },
    request: { url: '/' },
    check: (a) => { assert.equal(a.status, 500); assert.equal(json(a).statusCode, 500) }
  },
  {
    name: 'Fastify 5: request.host, hostname and port come from Host',
    lines: [5],
    setup: (app) => { app.get('/', async (req: any) => ({ host: req.host, hostname: req.hostname, port: req.port })) },
    request: { url: '/', headers: { host: 'api.example.test:8443' } },
    check: (a) => { assert.deepEqual(json(a), { host: 'api.example.test:8443', hostname: 'api.example.test', port: 8443 }) }
  },
  {
    name: 'Fastify 5: request.signal stays quiet while the request runs, onResponse included',
    lines: [5],
    setup: (app, seen) => {
      app.get('/', async (req: any) => {
        const signal = req.signal
        seen.push(signal.aborted)
        await new Promise((resolve) => setTimeout(resolve, 5))
        seen.push(signal.aborted)
        return 'ok'
      })
      app.addHook('onResponse', async (req: any) => { seen.push(req.signal.aborted) })
    },
    request: { url: '/' },
    check: (a, seen) => { assert.equal(a.body, 'ok'); assert.deepEqual(seen.slice(0, 3), [false, false, false]) }
  },
  {
    name: 'Fastify 5: a body on a POST without content-type is parsed as the catch-all would',
    lines: [5],
    setup: (app) => { app.post('/', async (req: any) => ({ body: req.body ?? null })) },
    request: { method: 'POST', url: '/' },
    check: (a) => { assert.equal(a.status, 200); assert.deepEqual(json(a), { body: null }) }
  }
]
