import { test } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import trellis from '../../src/index'
import { listen } from '../helpers'

/** Sends requests one after the other on one keep-alive socket; resolves with each answer's head (until the server closes). */
function sequential (port: number, count: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const answers: string[] = []
    const socket = net.connect(port, '127.0.0.1')
    let buffered = ''
    const send = (): void => { socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n') }
    const timer = setTimeout(() => socket.destroy(), 3000)
    socket.on('connect', send)
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1')
      // every answer here has a body with a content-length: one answer is complete at the end of its body
      const head = buffered.indexOf('\r\n\r\n')
      if (head === -1) return
      const length = Number(/content-length:\s*(\d+)/i.exec(buffered.slice(0, head))?.[1] ?? 0)
      if (buffered.length < head + 4 + length) return
      answers.push(buffered.slice(0, head + 4 + length))
      buffered = buffered.slice(head + 4 + length)
      if (answers.length < count) send()
      else socket.end()
    })
    socket.on('close', () => { clearTimeout(timer); resolve(answers) })
    socket.on('error', (err: NodeJS.ErrnoException) => { if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') reject(err) })
  })
}

test('maxRequestsPerSocket: the last allowed request gets Connection: close, one more gets 503 (real socket)', async () => {
  const app = trellis({ maxRequestsPerSocket: 2 })
  app.get('/', async () => ({ hello: 'world' }))
  const { port } = await listen(app)
  try {
    const answers = await sequential(port, 3)
    assert.equal(answers.length, 3, answers.join('\n---\n'))
    assert.match(answers[0], /^HTTP\/1\.1 200 /)
    assert.match(answers[0], /connection: keep-alive/i)
    assert.match(answers[0], /keep-alive: timeout=\d+/i)
    assert.match(answers[1], /^HTTP\/1\.1 200 /)
    assert.match(answers[1], /connection: close/i)
    assert.match(answers[2], /^HTTP\/1\.1 503 /)
    assert.match(answers[2], /connection: close/i)
  } finally {
    await app.close()
  }
})

test('maxRequestsPerSocket 0 or null: no limit per connection', async () => {
  for (const value of [0, null]) {
    const app = trellis({ maxRequestsPerSocket: value as number })
    app.get('/', async () => ({ hello: 'world' }))
    const { port } = await listen(app)
    try {
      const answers = await sequential(port, 4)
      assert.equal(answers.length, 4)
      for (const answer of answers) {
        assert.match(answer, /^HTTP\/1\.1 200 /)
        assert.match(answer, /connection: keep-alive/i)
      }
      assert.equal(app.initialConfig.maxRequestsPerSocket, 0)
    } finally {
      await app.close()
    }
  }
})
