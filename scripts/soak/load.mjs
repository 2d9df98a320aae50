// The request loop both soak scripts share (scripts/soak.mjs, scripts/soak/otel-demo.mjs): keep-alive
// clients on 127.0.0.1 sending the kinds of request of a mix, each checked against its expected status.
// A kind is `[name, request options, body, expected status]`.
import http from 'node:http'

/**
 * One request of `kind`; resolves (never rejects) once its answer has been read or it failed.
 * `onAnswer(name)` counts an answer; `onProblem(what)` an unexpected status or a client error;
 * `tolerate(name, err)` true: a client error that is the expected outcome (counted as an answer).
 */
export function sendOne (port, agent, [name, options, body, status], { onAnswer, onProblem, tolerate }) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, agent, method: 'GET', ...options }, (res) => {
      res.resume()
      res.on('end', () => {
        onAnswer(name)
        if (res.statusCode !== status) onProblem(`${name}: ${res.statusCode}, expected ${status}`)
        resolve()
      })
    })
    req.on('error', (err) => {
      if (tolerate !== undefined && tolerate(name, err)) onAnswer(name)
      else onProblem(`${name}: ${err.code || err.message}`)
      resolve()
    })
    req.end(body ?? undefined)
  })
}

/**
 * `concurrency` clients, each running `step(client, n)` (n: a counter shared by all clients, so the
 * kinds of a mix interleave) until `deadline` (ms since the epoch) or until `up()` turns false.
 */
export async function drive ({ concurrency, deadline, step, up = () => true }) {
  let n = 0
  await Promise.all(Array.from({ length: concurrency }, async (_, client) => {
    while (Date.now() < deadline && up()) await step(client, n++)
  }))
}
