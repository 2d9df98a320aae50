// Instructions of the Host and framing check (src/server/request-framing.ts) per request, for when
// `npm run bench:icount` cannot finish (it needs a quiet machine): run this under callgrind with N
// calls and with 0, and subtract; the same with `noop` gives the loop's own cost.
//   npm run build
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node bench/framing-icount.cjs 1000000 get
//   valgrind --tool=callgrind --callgrind-out-file=/dev/null node bench/framing-icount.cjs 0 get
//   ... and the same with `post` (the bench's POST headers) and with `noop` as the third argument
// (instructions per request = (Collected with N − Collected with 0) / N, minus the noop figure).
// The requests carry the header lines the bench client sends (Host, Connection; Content-Type and
// Content-Length on POST), each Host a string of its own, as node's parser makes them.
'use strict'
const { join } = require('node:path')
const { framingFault } = require(join(__dirname, '..', 'dist', 'lib', 'server', 'request-framing.js'))

const N = Number(process.argv[2] ?? 0)
const kind = process.argv[3] ?? 'get'
const check = process.argv[4] === 'noop' ? (req) => (req.url === '*' ? req : null) : framingFault
const port = String(30000 + Math.floor(Math.random() * 1000))
const requests = []
for (let i = 0; i < 1024; i++) {
  const host = ['127.0.0.1', port].join(':')
  requests.push(kind === 'post'
    ? { url: '/users', method: 'POST', httpVersionMajor: 1, httpVersionMinor: 1, rawHeaders: ['Content-Type', 'application/json', 'Content-Length', '60', 'Host', host, 'Connection', 'keep-alive'] }
    : { url: '/hello', method: 'GET', httpVersionMajor: 1, httpVersionMinor: 1, rawHeaders: ['Host', host, 'Connection', 'keep-alive'] })
}
let faults = 0
// warm-up to optimized code, the same in every run
for (let i = 0; i < 100000; i++) if (check(requests[i & 1023]) !== null) faults++
for (let i = 0; i < N; i++) if (check(requests[i & 1023]) !== null) faults++
if (faults !== 0) throw new Error('a valid request was refused')
