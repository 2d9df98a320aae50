// After an error of the body-parsing step the client may still be sending the body: Fastify 5 answers
// with `connection: close` and closes the socket after every such error but an unsupported media type;
// Fastify 4.29 only after a declared Content-Length over the limit. Over a real socket, on both lines
// of trellis and on the real fastify@5.12.8 / fastify@4.29.1 they follow.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'

type Factory = (opts?: object) => any
const targets: Array<{ name: string, line: 4 | 5, factory: Factory }> = [
  { name: 'trellis (Fastify 4 line)', line: 4, factory: trellisV4 as unknown as Factory },
  { name: 'fastify@4.29.1', line: 4, factory: require('fastify429') },
  { name: 'trellis/v5', line: 5, factory: trellisV5 as unknown as Factory },
  { name: 'fastify@5.12.8', line: 5, factory: require('fastify') }
]

const post = (type: string, body: string, extra = ''): string =>
  `POST / HTTP/1.1\r\nHost: x\r\nContent-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`

// name, request, status, whether Fastify 5 closes (Fastify 4.29 keeps every one of these open)
const cases: Array<[string, string, number, boolean]> = [
  ['invalid JSON', post('application/json', '{"a":'), 400, true],
  ['an empty JSON body', post('application/json', ''), 400, true],
  ['a JSON body with __proto__', post('application/json', '{"__proto__":{"x":1}}'), 400, true],
  ['a chunked body over the limit', 'POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n' + 'a'.repeat(64) + '\r\n0\r\n\r\n', 413, true],
  ['a custom parser that rejects', post('application/x-reject', 'hi'), 500, true],
  ['a custom parser that calls done(err) with a status', post('application/x-done', 'hi'), 422, true],
  ['an unsupported media type', post('application/x-none', 'hi'), 415, false],
  ['a body that parses', post('application/json', '{"a":1}'), 200, false]
]

/**
 * Sends `data` on one socket; resolves with what came back and whether the server closed it. Node
 * ends the socket right after a response with `connection: close`; a socket still open `idleMs`
 * after the last byte is taken as kept alive: 300 ms where it should stay open, 5 s where it should
 * close (a loaded machine can take longer than 300 ms to close it).
 */
function exchange (port: number, data: string, idleMs: number): Promise<{ text: string, closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let text = ''
    let closed = false
    let timer = setTimeout(() => socket.destroy(), 2000)
    socket.setEncoding('utf8')
    socket.on('data', (c: string) => {
      text += c
      clearTimeout(timer)
      timer = setTimeout(() => socket.destroy(), idleMs)
    })
    socket.on('end', () => { closed = true })
    socket.on('close', () => { clearTimeout(timer); resolve({ text, closed }) })
    socket.on('error', (err: NodeJS.ErrnoException) => { if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err) })
    socket.write(data)
  })
}

for (const { name, line, factory } of targets) {
  for (const errorHandler of [false, true]) {
    test(`${name}${errorHandler ? ', with a custom error handler' : ''}: connection after a body-parse error`, async () => {
      const app = factory({ bodyLimit: 32 })
      app.addContentTypeParser('application/x-reject', async () => { throw new Error('rejected') })
      app.addContentTypeParser('application/x-done', (_req: unknown, payload: any, done: (err: Error) => void) => {
        payload.resume()
        payload.on('end', () => { done(Object.assign(new Error('not acceptable'), { statusCode: 422 })) })
      })
      if (errorHandler) app.setErrorHandler((err: any, _req: unknown, reply: any) => { reply.code(err.statusCode ?? 500).send({ custom: err.message }) })
      app.post('/', async (req: any) => ({ got: req.body }))
      await app.listen({ port: 0, host: '127.0.0.1' })
      try {
        const port = app.server.address().port
        // one socket per case, all at once
        const answers = await Promise.all(cases.map(([, request, , closesOn5]) => exchange(port, request, line === 5 && closesOn5 ? 5000 : 300)))
        for (const [i, [what, , status, closesOn5]] of cases.entries()) {
          const { text, closed } = answers[i]
          const closes = line === 5 && closesOn5
          assert.match(text, new RegExp(`^HTTP/1\\.1 ${status} `), what)
          assert.match(text, closes ? /\r\nconnection: close\r\n/i : /\r\nconnection: keep-alive\r\n/i, what)
          assert.equal(closed, closes, `${what}: the server ${closes ? 'closes' : 'keeps'} the socket`)
          if (status !== 200) assert.match(text.slice(text.indexOf('\r\n\r\n')), errorHandler ? /"custom":/ : /"statusCode":\d{3}/, what)
        }
      } finally {
        await app.close()
      }
    })
  }
}
