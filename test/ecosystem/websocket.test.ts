/**
 * @fastify/websocket 10 (the last Fastify 4 line; it declares `fastify: '^4.16.0'`, so it loads only
 * when the instance reports a 4.16+ version) upgrades, echoes and closes on trellis, over a real
 * socket; its injectWS helper and its preClose hook work too. On the Fastify 5 line the same with
 * @fastify/websocket 11 (`fastify: '5.x'`).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin, pluginPath, byLine } from './target'

// ws is @fastify/websocket's own dependency; its client talks to the server below
const WebSocket = require(require.resolve('ws', { paths: [pluginPath('@fastify/websocket')] }))

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/websocket'))
  app.get('/echo', { websocket: true }, (socket: any, req: any) => {
    socket.on('message', (msg: Buffer) => socket.send(`${req.url}:${msg.toString()}`))
  })
  app.get('/plain', async () => ({ plain: true }))
  return app
}

test(`@fastify/websocket ${byLine('10 loads (version range ^4.16.0)', '11 loads (version range 5.x)')} and echoes over a real socket`, async () => {
  const app = await build()
  assert.match(app.version, byLine(/^4\.(1[6-9]|2\d)\./, /^5\./))
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = app.addresses()[0].port
  const ws = new WebSocket(`ws://127.0.0.1:${port}/echo`)
  const reply = await new Promise<string>((resolve, reject) => {
    ws.on('open', () => ws.send('hi'))
    ws.on('message', (m: Buffer) => resolve(m.toString()))
    ws.on('error', reject)
  })
  assert.equal(reply, '/echo:hi')
  const plain = await fetch(`http://127.0.0.1:${port}/plain`)
  assert.deepEqual(await plain.json(), { plain: true })
  const closed = new Promise<void>((resolve) => ws.on('close', () => resolve()))
  await app.close() // the plugin's preClose hook closes open websockets, so close() does not hang
  await closed
})

test('@fastify/websocket injectWS works without a listening server', async () => {
  const app = await build()
  await app.ready()
  const ws = await app.injectWS('/echo')
  const reply = await new Promise<string>((resolve) => { ws.on('message', (m: Buffer) => resolve(m.toString())); ws.send('x') })
  assert.equal(reply, '/echo:x')
  ws.terminate()
  await app.close()
})
