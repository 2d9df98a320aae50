import { test } from 'node:test'
import assert from 'node:assert/strict'
import trellis from '../../src/index'
import { listen, request } from '../helpers'

test('useSemicolonDelimiter (Fastify 4.29, default true): `;` starts the query; false keeps it in the path', async () => {
  const on: any = trellis()
  on.get('/1234', async (req: any) => req.query)
  const off: any = trellis({ useSemicolonDelimiter: false })
  off.get('/1234;foo=bar', async (req: any) => ({ path: req.url }))
  const a = await listen(on)
  const b = await listen(off)
  try {
    assert.deepEqual(JSON.parse((await request(a.port, { path: '/1234;foo=bar' })).body), { foo: 'bar' })
    const res = await request(b.port, { path: '/1234;foo=bar' })
    assert.equal(res.statusCode, 200)
    assert.deepEqual(JSON.parse(res.body), { path: '/1234;foo=bar' })
  } finally {
    await on.close()
    await off.close()
  }
})

test('getDefaultRoute / setDefaultRoute still work, with the FSTDEP014 deprecation', async () => {
  const codes: string[] = []
  const onWarning = (w: any): void => { if (w.code === 'FSTDEP014') codes.push(w.name) }
  process.on('warning', onWarning)
  const { warnings } = await import('../../src/base/warnings')
  warnings.FSTDEP014.emitted = false
  try {
    const app: any = trellis()
    const fallback = app.getDefaultRoute()
    app.setDefaultRoute((req: any, res: any) => fallback(req, res))
    await new Promise((resolve) => setImmediate(resolve))
    assert.deepEqual(codes, ['DeprecationWarning'])
    assert.equal((await app.inject('/nothing')).statusCode, 404)
  } finally {
    process.removeListener('warning', onWarning)
  }
})
