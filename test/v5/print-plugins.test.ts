import { test } from 'node:test'
import assert from 'node:assert/strict'
import fp from 'fastify-plugin'
import { v4, v5Targets } from './lines'

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

function buildApp (factory: (opts?: object) => any): any {
  const app = factory()
  app.register(async function outer (instance: any) {
    instance.register(async function slow () { await sleep(40) })
    instance.register(function callbackStyle (_instance: any, _opts: unknown, done: () => void) { done() })
  })
  app.register(fp(async function wrapped () {}, { name: 'wrapped-plugin' }))
  app.after(() => {})
  app.register(async function last () {})
  return app
}

for (const [name, factory] of v5Targets) {
  test(`${name}: printPlugins() shows each plugin and after() callback with its load time, as a tree`, async () => {
    const app = buildApp(factory)
    await app.ready()
    const tree: string = app.printPlugins()
    // fastify@5 also lists its own internal after() first (its default 404 handler's)
    assert.match(tree, /^root \d+ ms\n(├── bound _after \d+ ms\n)?├─┬ outer (\d+) ms\n│ ├── slow (\d+) ms\n│ └── callbackStyle \d+ ms\n├── wrapped-plugin \d+ ms\n├── bound _after \d+ ms\n└── last \d+ ms\n$/)
    const ms = (label: string): number => Number(new RegExp(`${label} (\\d+) ms`).exec(tree)?.[1])
    assert.ok(ms('slow') >= 35, tree)
    assert.ok(ms('outer') >= ms('slow'), tree)
    assert.ok(ms('root') >= ms('outer'), tree)
    await app.close()
  })
}

test('trellis (v4 line): printPlugins() prints the encapsulating plugins without times', async () => {
  const app = buildApp(v4)
  await app.ready()
  assert.equal(app.printPlugins(), 'root\n└── outer\n  └── slow\n  └── callbackStyle\n└── last\n')
  await app.close()
})
