import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import { v5Targets } from './lines'

for (const [name, factory] of v5Targets) {
  test(`${name}: reply.writeEarlyHints sends a 103 before the response (real socket); reply.routeOptions`, async () => {
    const app = factory()
    let hinted = false
    let routeUrl: unknown
    app.get('/', async (_req: any, reply: any) => {
      routeUrl = reply.routeOptions.url
      reply.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' }, () => { hinted = true })
      return 'hello'
    })
    await app.listen({ port: 0, host: '127.0.0.1' })
    try {
      const { info, status, body } = await new Promise<{ info: http.IncomingHttpHeaders[], status?: number, body: string }>((resolve, reject) => {
        const info: http.IncomingHttpHeaders[] = []
        const req = http.get(`http://127.0.0.1:${app.server.address().port}/`, (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (c: string) => { body += c })
          res.on('end', () => resolve({ info, status: res.statusCode, body }))
        })
        req.on('information', (res) => { if (res.statusCode === 103) info.push(res.headers) })
        req.on('error', reject)
      })
      assert.equal(info.length, 1)
      assert.equal(info[0]!.link, '</style.css>; rel=preload; as=style')
      assert.equal(status, 200)
      assert.equal(body, 'hello')
      assert.equal(hinted, true)
      assert.equal(routeUrl, '/')
    } finally {
      await app.close()
    }
  })
}
