import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

// onRequest hooks of nested plugin levels (the benchmark's nested route), over a real socket: the
// chain's order, an error or an answer part-way, and Fastify 4.3's recursive `done`.

type Mode = 'ok' | 'error at 3' | 'send at 2' | 'async error at 4'

function build (mode: Mode, order: string[]): ReturnType<typeof trellis> {
  const app = trellis()
  const level = (n: number) => async (instance: any): Promise<void> => {
    instance.decorateRequest(`l${n}`, 0)
    if (mode === 'async error at 4' && n === 4) {
      instance.addHook('onRequest', async () => { order.push('hook 4'); throw Object.assign(new Error('nope 4'), { statusCode: 418 }) })
    } else {
      instance.addHook('onRequest', function (request: any, reply: any, done: (err?: Error) => void) {
        order.push(`hook ${n}`)
        request[`l${n}`] = n
        if (mode === 'error at 3' && n === 3) { done(Object.assign(new Error('nope 3'), { statusCode: 409 })); return }
        if (mode === 'send at 2' && n === 2) { reply.code(202).send({ stopped: 2 }); return }
        done()
        order.push(`after done ${n}`)
      })
    }
    if (n < 5) instance.register(level(n + 1), { prefix: `/l${n + 1}` })
    else instance.get('/deep', async (request: any) => { order.push('handler'); return { sum: request.l1 + request.l2 + request.l3 + request.l4 + request.l5 } })
  }
  app.register(level(1), { prefix: '/l1' })
  return app
}

const cases: Array<[Mode, number, unknown, string[]]> = [
  ['ok', 200, { sum: 15 }, ['hook 1', 'hook 2', 'hook 3', 'hook 4', 'hook 5', 'handler', 'after done 5', 'after done 4', 'after done 3', 'after done 2', 'after done 1']],
  ['error at 3', 409, { statusCode: 409, error: 'Conflict', message: 'nope 3' }, ['hook 1', 'hook 2', 'hook 3', 'after done 2', 'after done 1']],
  ['send at 2', 202, { stopped: 2 }, ['hook 1', 'hook 2', 'after done 1']],
  ['async error at 4', 418, { statusCode: 418, error: "I'm a Teapot", message: 'nope 4' }, ['hook 1', 'hook 2', 'hook 3', 'hook 4', 'after done 3', 'after done 2', 'after done 1']]
]

for (const [mode, status, body, expected] of cases) {
  test(`five onRequest hooks over five plugin levels, real socket: ${mode}`, async () => {
    const order: string[] = []
    const app = build(mode, order)
    const { port } = await listen(app)
    try {
      const res = await request(port, { path: '/l1/l2/l3/l4/l5/deep' })
      assert.equal(res.statusCode, status)
      assert.deepEqual(JSON.parse(res.body), body)
      assert.deepEqual(order, expected)
    } finally {
      await app.close()
    }
  })
}
