// The behaviour table (./behaviour-table.ts) run three ways, on both lines: over inject, over a
// real socket (node:http client) and through app.fetch with a Request made in-process. Each answer
// passes the case's checks, and the three answers of a case are the same.
import { test } from 'node:test'
import assert from 'node:assert/strict'
import http from 'node:http'
import trellisV4 from '../../src/index'
import trellisV5 from '../../src/v5'
import { CASES, sendThroughFetch, type Answer, type BehaviourCase, type Line, type Sent } from './behaviour-table'

const factories: Record<Line, (opts?: object) => any> = {
  4: trellisV4 as unknown as (opts?: object) => any,
  5: trellisV5 as unknown as (opts?: object) => any
}

const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

function normalize (status: number, entries: Iterable<[string, string | string[] | number | undefined]>): Answer['headers'] {
  const headers: Answer['headers'] = {}
  for (const [name, value] of entries) {
    const key = name.toLowerCase()
    if (CONNECTION_HEADERS.has(key) || value === undefined) continue
    if (key === 'set-cookie') headers[key] = ([] as string[]).concat(value as string | string[])
    else headers[key] = Array.isArray(value) ? value.join(', ') : String(value)
  }
  void status
  return headers
}

type Way = (app: any, sent: Sent) => Promise<Answer>

const viaInject: Way = async (app, sent) => {
  const res = await app.inject({ method: sent.method ?? 'GET', url: sent.url, headers: sent.headers, payload: sent.body })
  return { status: res.statusCode, headers: normalize(res.statusCode, Object.entries(res.headers)), body: res.body }
}

const viaSocket: Way = async (app, sent) => {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = app.server.address().port
  return await new Promise<Answer>((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: sent.method ?? 'GET', path: sent.url, headers: sent.headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: normalize(res.statusCode ?? 0, Object.entries(res.headers)), body: Buffer.concat(chunks).toString() }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(sent.body)
  })
}

const viaFetch: Way = async (app, sent) => {
  const { status, entries, body } = await sendThroughFetch(app, sent)
  return { status, headers: normalize(status, entries), body }
}

const WAYS: Array<[string, Way]> = [['inject', viaInject], ['socket', viaSocket], ['fetch', viaFetch]]

async function runCase (c: BehaviourCase, line: Line, way: Way): Promise<{ answer: Answer, seen: unknown[] }> {
  const app = factories[line]()
  const seen: unknown[] = []
  c.setup(app, seen, line)
  try {
    const answer = await way(app, c.request)
    // onResponse hooks run once the response is out: let them finish
    await new Promise((resolve) => setTimeout(resolve, 10))
    return { answer, seen }
  } finally {
    await app.close()
  }
}

for (const line of [4, 5] as const) {
  for (const c of CASES) {
    if (c.lines !== undefined && !c.lines.includes(line)) continue
    test(`v${line}: ${c.name}`, async (t) => {
      const answers: Array<[string, Answer]> = []
      for (const [name, way] of WAYS) {
        await t.test(name, async () => {
          const { answer, seen } = await runCase(c, line, way)
          answers.push([name, answer])
          c.check(answer, seen, line)
        })
      }
      assert.equal(answers.length, WAYS.length)
      const [, first] = answers[0]
      for (const [name, answer] of answers.slice(1)) {
        // the socket's host differs from inject's and fetch's; everything else is the same
        assert.deepEqual(answer, first, `${name} answers as inject does`)
      }
    })
  }
}
