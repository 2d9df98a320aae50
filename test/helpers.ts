/** Small helpers for core tests: real sockets, raw HTTP, captured logs. */
import http from 'node:http'
import net from 'node:net'
import { Writable } from 'node:stream'

export interface Listening { port: number; url: string }

/** Listens on 127.0.0.1, a free port. */
export async function listen (app: { listen: (o: { port: number; host: string }) => Promise<string>; addresses: () => Array<{ port: number }> }): Promise<Listening> {
  const url = await app.listen({ port: 0, host: '127.0.0.1' })
  return { port: app.addresses()[0].port, url }
}

export interface SimpleResponse { statusCode: number; headers: http.IncomingHttpHeaders; body: string }

/** One HTTP request without keep-alive; resolves with the full body. */
export function request (port: number, opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string | Buffer | string[] } = {}): Promise<SimpleResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path ?? '/', headers: opts.headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    if (Array.isArray(opts.body)) { for (const chunk of opts.body) req.write(chunk); req.end() } else req.end(opts.body)
  })
}

/** Writes raw bytes to the server and resolves with everything it answers until it closes (or timeoutMs). */
export function rawRequest (port: number, data: string | Buffer, timeoutMs = 2000): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    const chunks: Buffer[] = []
    const timer = setTimeout(() => socket.destroy(), timeoutMs)
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('close', () => { clearTimeout(timer); resolve(Buffer.concat(chunks).toString('latin1')) })
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'ECONNRESET' || err.code === 'EPIPE') return
      clearTimeout(timer); reject(err)
    })
    socket.write(data)
  })
}

/** Splits a raw HTTP/1.1 response into status, lowercased headers and body. */
export function parseRaw (text: string): { statusCode: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n')
  const head = end === -1 ? text : text.slice(0, end)
  const lines = head.split('\r\n')
  const statusCode = Number(lines[0].split(' ')[1])
  const headers: Record<string, string> = {}
  for (const line of lines.slice(1)) {
    const i = line.indexOf(':')
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim()
  }
  return { statusCode, headers, body: end === -1 ? '' : text.slice(end + 4) }
}

/** A writable that collects pino's JSON lines. */
export function logCollector (): { stream: Writable; lines: Array<Record<string, any>> } {
  const lines: Array<Record<string, any>> = []
  let pending = ''
  const stream = new Writable({
    write (chunk: Buffer, _enc, cb) {
      pending += chunk.toString()
      let i: number
      while ((i = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, i)
        pending = pending.slice(i + 1)
        if (line.trim() !== '') lines.push(JSON.parse(line))
      }
      cb()
    }
  })
  return { stream, lines }
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Asserts a JSON body never contains a stack trace. */
export function noStack (body: string): boolean {
  return !/\bat\s+\S+\s+\(|\.ts:\d+|\.js:\d+|"stack"/.test(body)
}

/**
 * Runs `setup` (lines using `app`, created with pluginTimeout 50) in a fresh Node process that has
 * nothing else keeping it alive, and returns what `app.ready()` ended with: 'ready' or
 * 'rejected <code>'. Shows that timeouts fail ready() instead of letting the process exit silently.
 */
export function readyOutcomeInFreshProcess (setup: string): string {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process')
  const { resolve } = require('node:path') as typeof import('node:path')
  const script = [
    "const trellis = require('./src/index').default",
    'const app = trellis({ pluginTimeout: 50 })',
    setup,
    "app.ready().then(() => console.log('ready'), (e) => console.log('rejected ' + e.code))"
  ].join('\n')
  const out = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], { cwd: resolve(__dirname, '..'), encoding: 'utf8', timeout: 20000 })
  return out.stdout.trim()
}

/**
 * A raw keep-alive socket with `GET /slow` in flight on a route whose handler waits for release():
 * resolves once the handler runs, so a test can close() while the request is in the server's hands.
 * `received()` is everything the socket read; `ended` resolves when the server closes it.
 */
export async function slowRequestInFlight (app: any, extraRoutes?: (app: any) => void): Promise<{ port: number; socket: net.Socket; release: () => void; ended: Promise<void>; received: () => string }> {
  let release!: () => void
  const gate = new Promise<void>((resolve) => { release = resolve })
  let started!: () => void
  const handlerStarted = new Promise<void>((resolve) => { started = resolve })
  app.get('/slow', async () => { started(); await gate; return 'slow done' })
  if (extraRoutes !== undefined) extraRoutes(app)
  const { port } = await listen(app)
  const socket = net.connect(port, '127.0.0.1')
  const chunks: Buffer[] = []
  socket.on('data', (c: Buffer) => chunks.push(c))
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()))
  socket.write('GET /slow HTTP/1.1\r\nHost: x\r\n\r\n')
  await handlerStarted
  return { port, socket, release, ended, received: () => Buffer.concat(chunks).toString() }
}
