/**
 * CVE-2026-25224 (GHSA-mrq3-vjjr-p77c): a web `ReadableStream` (or a fetch `Response` with a stream
 * body) sent with `reply.send()` was read as fast as it could produce, whatever the client read:
 * a client that stops reading made the server buffer without bound. Here the producer never ends,
 * the client (a raw socket) reads the status line and then pauses; what the server pulled from the
 * stream must stop growing, and closing the socket must cancel the stream.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import net from 'node:net'
import { ReadableStream } from 'node:stream/web'
import trellis from '../../src/index'
import { listen, delay } from '../helpers'

const CHUNK = 64 * 1024
const MiB = 1024 * 1024
const CAP = 256 * MiB

interface Producer { stream: ReadableStream<Uint8Array>, pulled: () => number, cancelled: Promise<void> }

function endlessProducer (): Producer {
  let pulled = 0
  let onCancel: () => void = () => {}
  const cancelled = new Promise<void>((resolve) => { onCancel = resolve })
  const chunk = new Uint8Array(CHUNK).fill(0x61)
  const stream = new ReadableStream<Uint8Array>({
    // "endless" for a server that honours backpressure; the cap only bounds what a broken one buffers
    pull (controller) {
      if (pulled >= CAP) { controller.close(); return }
      pulled += CHUNK
      controller.enqueue(chunk)
    },
    cancel () { onCancel() }
  })
  return { stream, pulled: () => pulled, cancelled }
}

async function stalledClient (send: (producer: Producer) => unknown): Promise<void> {
  const producer = endlessProducer()
  const app = trellis()
  app.get('/stream', async (_req, reply) => reply.send(send(producer)))
  const { port } = await listen(app)
  const socket = net.connect(port, '127.0.0.1')
  try {
    const head = await new Promise<string>((resolve, reject) => {
      socket.once('data', (chunk: Buffer) => { socket.pause(); resolve(chunk.toString('latin1')) })
      socket.once('error', reject)
      socket.write('GET /stream HTTP/1.1\r\nHost: x\r\n\r\n')
    })
    assert.match(head, /^HTTP\/1\.1 200 /)
    // the client reads nothing more: the kernel's socket buffers fill, then the server must stop
    // (stalled = no progress over three samples in a row, so a descheduled process is not mistaken for it)
    let before = -1
    let still = 0
    for (let i = 0; i < 60 && still < 3; i++) {
      const now = producer.pulled()
      still = now === before ? still + 1 : 0
      before = now
      await delay(150)
    }
    const settled = producer.pulled()
    assert.equal(still, 3, `the server stopped pulling from the stream (still pulling after 9 s: ${(settled / MiB).toFixed(1)} MiB)`)
    // loopback socket buffers hold a few MiB; unbounded buffering would be far past this in 9 s
    assert.ok(settled < 64 * MiB, `pulled ${(settled / MiB).toFixed(1)} MiB for a client that reads nothing`)
    await delay(300)
    assert.equal(producer.pulled(), settled, 'still stalled')

    // the client goes away: the stream is cancelled, not left pending
    socket.destroy()
    await Promise.race([producer.cancelled, delay(3000).then(() => { throw new Error('stream not cancelled') })])
  } finally {
    socket.destroy()
    await app.close()
  }
}

describe('CVE-2026-25224 (GHSA-mrq3-vjjr-p77c): web-stream payloads honour backpressure', () => {
  it('a ReadableStream to a client that stops reading: bounded, then cancelled on close', async () => {
    await stalledClient((p) => p.stream)
  })

  it('a fetch Response with a stream body: the same', async () => {
    await stalledClient((p) => new Response(p.stream as unknown as globalThis.ReadableStream, { headers: { 'content-type': 'application/octet-stream' } }))
  })
})
