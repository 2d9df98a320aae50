/**
 * The runners of the hooks that come after the answer: onResponse (request, reply, done) and
 * onRequestAbort (request, done). Nothing can be answered any more, so both run the hooks in
 * order, stop at the first error and hand it to `done(err)`; `done(null)` after the last hook.
 * They differ only in the arguments and in the error made for an undefined failure.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { runAbortHooks, runResponseHooks } from '../../src/lifecycle/hook-runners'

type Outcome = Error | null

function runBoth (make: (log: string[]) => Function[]): Promise<{ response: { log: string[], err: Outcome }, abort: { log: string[], err: Outcome } }> {
  const thisArg = { name: 'server' }
  const request = { id: 'req' }
  const reply = { id: 'rep' }
  const response = new Promise<{ log: string[], err: Outcome }>((resolve) => {
    const log: string[] = []
    runResponseHooks(make(log) as any, thisArg, request, reply, (err) => resolve({ log, err }))
  })
  const abort = new Promise<{ log: string[], err: Outcome }>((resolve) => {
    const log: string[] = []
    runAbortHooks(make(log) as any, thisArg, request, (err) => resolve({ log, err }))
  })
  return Promise.all([response, abort]).then(([r, a]) => ({ response: r, abort: a }))
}

test('every hook runs in order with this, the request (and the reply for onResponse); done(null) at the end', async () => {
  const seen: unknown[][] = []
  const out = await runBoth((log) => [
    function (this: any, ...args: any[]) { seen.push([this.name, ...args.slice(0, -1).map((a) => a.id)]); log.push('a'); args[args.length - 1]() },
    async function (this: any) { await new Promise((resolve) => setTimeout(resolve, 2)); log.push('b') },
    function (...args: any[]) { log.push('c'); setImmediate(() => args[args.length - 1]()) }
  ])
  assert.deepEqual(out.response, { log: ['a', 'b', 'c'], err: null })
  assert.deepEqual(out.abort, { log: ['a', 'b', 'c'], err: null })
  assert.deepEqual(seen, [['server', 'req', 'rep'], ['server', 'req']])
})

test('no hooks: done(null) at once', async () => {
  const out = await runBoth(() => [])
  assert.deepEqual(out.response, { log: [], err: null })
  assert.deepEqual(out.abort, { log: [], err: null })
})

for (const [how, fail] of [
  ['done(err)', (...args: any[]) => { args[args.length - 1](new Error('boom')) }],
  ['a throw', () => { throw new Error('boom') }],
  ['a rejection', async () => { throw new Error('boom') }]
] as Array<[string, Function]>) {
  test(`${how} stops the later hooks and reaches done`, async () => {
    const out = await runBoth((log) => [(...args: any[]) => { log.push('a'); args[args.length - 1]() }, fail, () => { log.push('never') }])
    for (const r of [out.response, out.abort]) {
      assert.deepEqual(r.log, ['a'])
      assert.equal(r.err?.message, 'boom')
    }
  })
}

test('a non-Error failure becomes an Error; objects pass as they are', async () => {
  const out = await runBoth(() => [(...args: any[]) => { args[args.length - 1]('text') }])
  assert.ok(out.response.err instanceof Error)
  assert.equal(out.response.err.message, 'text')
  assert.equal(out.abort.err?.message, 'text')
  const obj = { message: 'plain object' }
  const out2 = await runBoth(() => [() => { throw obj }])
  assert.equal(out2.response.err, obj)
  assert.equal(out2.abort.err, obj)
})

test('an undefined (or null) throw or rejection: onResponse and onRequestAbort each make their own error', async () => {
  const thrown = await runBoth(() => [() => { throw undefined }]) // eslint-disable-line no-throw-literal
  assert.equal(thrown.response.err?.message, 'undefined')
  assert.equal((thrown.abort.err as any)?.code, 'FST_ERR_SEND_UNDEFINED_ERR')
  const thrownNull = await runBoth(() => [() => { throw null }]) // eslint-disable-line no-throw-literal
  assert.equal(thrownNull.response.err?.message, 'null')
  assert.equal((thrownNull.abort.err as any)?.code, 'FST_ERR_SEND_UNDEFINED_ERR')
  const rejected = await runBoth(() => [() => Promise.reject(undefined)]) // eslint-disable-line prefer-promise-reject-errors
  assert.equal(rejected.response.err?.message, 'onResponse hook rejected')
  assert.equal((rejected.abort.err as any)?.code, 'FST_ERR_SEND_UNDEFINED_ERR')
})
