/**
 * @fastify/schedule 4 (`fastify: '4.x'`; its peerDependency `fastify ^4` is overridden in
 * package.json to the repo's fastify devDependency, as for the type providers, since it never
 * loads fastify itself) on trellis: a job added to app.scheduler runs on its interval, and
 * app.close() stops the scheduler (the job does not run again, the process is not held).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis, { plugin } from './target'

test('a scheduled job runs, and close() stops it', async () => {
  const app: any = trellis()
  await app.register(plugin('@fastify/schedule'))
  const { SimpleIntervalJob, AsyncTask } = require(require.resolve('toad-scheduler'))
  let runs = 0
  let resolveTwice: () => void = () => {}
  const twice = new Promise<void>((resolve) => { resolveTwice = resolve })
  await app.ready()
  app.scheduler.addSimpleIntervalJob(new SimpleIntervalJob({ milliseconds: 20 }, new AsyncTask('count', async () => { if (++runs === 2) resolveTwice() }), { id: 'count' }))
  await twice
  assert.equal(app.scheduler.getById('count').getStatus(), 'running')
  await app.close()
  const atClose = runs
  await new Promise((resolve) => setTimeout(resolve, 80))
  assert.equal(runs, atClose)
  assert.equal(app.scheduler.getById('count').getStatus(), 'stopped')
})
