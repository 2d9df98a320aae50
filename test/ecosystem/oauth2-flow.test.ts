/**
 * @fastify/oauth2 7 (`fastify: '4.x'`) on trellis, against a local fake authorization server (a
 * plain node http server on a loopback port standing in for the provider): the start path
 * redirects to the provider with a state cookie; the callback exchanges the code for a token; a
 * callback whose state does not match the cookie is refused.
 */
import { test, before, after } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import net from 'node:net'
import trellis, { plugin } from './target'

let provider: http.Server
let providerUrl = ''
const tokenRequests: string[] = []

before(async () => {
  provider = http.createServer((req, res) => {
    let body = ''
    req.on('data', (c: Buffer) => { body += c.toString() })
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/oauth/token') {
        tokenRequests.push(body)
        const code = new URLSearchParams(body).get('code')
        if (code !== 'good-code') { res.writeHead(400, { 'content-type': 'application/json' }); res.end('{"error":"invalid_grant"}'); return }
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ access_token: 'tok-123', token_type: 'bearer', expires_in: 3600 }))
        return
      }
      res.writeHead(404); res.end()
    })
  })
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve))
  providerUrl = `http://127.0.0.1:${(provider.address() as net.AddressInfo).port}`
})
after(async () => { await new Promise((resolve) => provider.close(resolve)) })

async function build (): Promise<any> {
  const app: any = trellis()
  await app.register(plugin('@fastify/oauth2'), {
    name: 'demo',
    scope: ['read'],
    credentials: { client: { id: 'cid', secret: 'csecret' }, auth: { authorizeHost: providerUrl, authorizePath: '/oauth/authorize', tokenHost: providerUrl, tokenPath: '/oauth/token' } },
    startRedirectPath: '/login/demo',
    callbackUri: 'http://app.test/login/demo/callback'
  })
  app.get('/login/demo/callback', async function (this: any, req: any) {
    const { token } = await this.demo.getAccessTokenFromAuthorizationCodeFlow(req)
    return { access: token.access_token }
  })
  return app
}

test('start redirect with state cookie, then the code is exchanged for a token', async () => {
  const app = await build()
  const start = await app.inject({ url: '/login/demo' })
  assert.equal(start.statusCode, 302)
  const location = new URL(String(start.headers.location))
  assert.equal(location.origin + location.pathname, `${providerUrl}/oauth/authorize`)
  assert.equal(location.searchParams.get('client_id'), 'cid')
  assert.equal(location.searchParams.get('redirect_uri'), 'http://app.test/login/demo/callback')
  assert.equal(location.searchParams.get('scope'), 'read')
  const state = String(location.searchParams.get('state'))
  const stateCookie = start.cookies.find((c: any) => c.name === 'oauth2-redirect-state')
  assert.equal(stateCookie.value, state)
  assert.equal(stateCookie.httpOnly, true)
  const cb = await app.inject({ url: `/login/demo/callback?code=good-code&state=${state}`, cookies: { 'oauth2-redirect-state': state } })
  assert.equal(cb.statusCode, 200)
  assert.deepEqual(cb.json(), { access: 'tok-123' })
  const sent = new URLSearchParams(tokenRequests.at(-1))
  assert.equal(sent.get('grant_type'), 'authorization_code')
  assert.equal(sent.get('code'), 'good-code')
  await app.close()
})

test('a state that does not match the cookie is refused before any token request', async () => {
  const app = await build()
  const before = tokenRequests.length
  const cb = await app.inject({ url: '/login/demo/callback?code=good-code&state=forged', cookies: { 'oauth2-redirect-state': 'real' } })
  assert.equal(cb.statusCode, 500)
  assert.match(cb.json().message, /Invalid state/)
  assert.equal(tokenRequests.length, before)
  await app.close()
})
