/**
 * @fastify/websocket 10 on trellis beyond the echo: route hooks run before the upgrade (an
 * onRequest/preValidation that answers refuses it with a real HTTP status), one route serving both
 * a plain GET (handler) and the upgrade (wsHandler), a thrown error going to the plugin's
 * errorHandler, params/query/decorators on the request, encapsulated prefixes, and
 * app.websocketServer's client set.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin, pluginPath } from './target'
import { listen } from '../helpers'

const WebSocket = require(require.resolve('ws', { paths: [pluginPath('@fastify/websocket')] }))

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/websocket'), {
    errorHandler: (err: Error, socket: any) => { socket.send(`error: ${err.message}`); socket.close() }
  })
  app.decorateRequest('who', null)
  app.addHook('onRequest', async (req: any, reply: any) => {
    if (req.query.token !== 'ok') return reply.code(401).send({ error: 'no token' })
    req.who = 'ann'
  })
  await app.register(async (scope: any) => {
    scope.addHook('preValidation', async (req: any, reply: any) => { if (req.params.room === 'closed') await reply.code(403).send({ closed: true }) })
    scope.route({
      method: 'GET',
      url: '/rooms/:room',
      handler: async (req: any) => ({ http: true, room: req.params.room }),
      wsHandler: (socket: any, req: any) => { socket.send(`${req.who} joined ${req.params.room as string}`) }
    })
    scope.get('/boom', { websocket: true }, () => { throw new Error('kaput') })
  }, { prefix: '/chat' })
  return app
}

function connect (url: string): Promise<{ first: string } | { status: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url)
    ws.on('message', (m: Buffer) => { resolve({ first: m.toString() }); ws.close() })
    ws.on('unexpected-response', (_req: any, res: any) => { resolve({ status: res.statusCode }); res.resume() })
    ws.on('error', (err: Error) => { if (!/Unexpected server response/.test(err.message)) reject(err) })
  })
}

test('hooks refuse the upgrade with an HTTP status; params, query and decorators reach the wsHandler', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const base = `ws://127.0.0.1:${port}/chat`
  assert.deepEqual(await connect(`${base}/rooms/lobby`), { status: 401 })
  assert.deepEqual(await connect(`${base}/rooms/closed?token=ok`), { status: 403 })
  assert.deepEqual(await connect(`${base}/rooms/lobby?token=ok`), { first: 'ann joined lobby' })
  const plain = await fetch(`http://127.0.0.1:${port}/chat/rooms/lobby?token=ok`)
  assert.deepEqual(await plain.json(), { http: true, room: 'lobby' })
  assert.deepEqual(await connect(`${base}/boom?token=ok`), { first: 'error: kaput' })
})

test('app.websocketServer tracks connected clients; close() closes them', async (t) => {
  const app = await build()
  t.after(() => app.close())
  const { port } = await listen(app)
  const ws = new WebSocket(`ws://127.0.0.1:${port}/chat/rooms/a?token=ok`)
  await new Promise((resolve) => ws.on('message', resolve))
  assert.equal(app.websocketServer.clients.size, 1)
  const closed = new Promise<number>((resolve) => ws.on('close', (code: number) => resolve(code)))
  await app.close()
  assert.equal(typeof await closed, 'number')
})
