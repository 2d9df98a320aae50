import { Writable } from 'node:stream'

/** A pino destination that keeps the parsed log lines. */
export function captureLogs (): { stream: Writable, lines: () => Array<Record<string, unknown>> } {
  const out: Array<Record<string, unknown>> = []
  const stream = new Writable({ write (chunk, _enc, done) { out.push(JSON.parse(String(chunk))); done() } })
  return { stream, lines: () => out }
}
