/**
 * `trellis start` options: flags, their environment variables (flag wins), and clear errors for bad
 * values; the restart back-off of the cluster primary.
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { parseStartArgs, parseWorkers, UsageError } from '../../src/cli/args'
import { createBackoff } from '../../src/cli/backoff'

test('defaults: port 3000 on localhost, one worker, info logs, 10 s close timeout', () => {
  const o = parseStartArgs(['app.js'], {})
  assert.equal(o.file, 'app.js')
  assert.equal(o.port, 3000)
  assert.equal(o.address, 'localhost')
  assert.equal(o.workers, 1)
  assert.equal(o.logLevel, 'info')
  assert.equal(o.closeTimeout, 10000)
  assert.equal(o.prettyLogs, false)
  assert.equal(o.trustProxy, undefined)
  assert.equal(o.options, false)
})

test('long, short and --name=value flags', () => {
  const o = parseStartArgs(['-p', '8080', '--address=0.0.0.0', '-x', 'api', '--log-level', 'warn', '-P', '--workers', '3',
    '--trust-proxy', 'loopback,10.0.0.0/8', '--body-limit', '2048', '--request-id-header', 'x-request-id', '-g', '500', '-o', '--compile-cache=false', 'app.mjs'], {})
  assert.deepEqual({ ...o }, {
    file: 'app.mjs',
    line: undefined,
    port: 8080,
    address: '0.0.0.0',
    prefix: '/api',
    logLevel: 'warn',
    prettyLogs: true,
    workers: 3,
    trustProxy: 'loopback,10.0.0.0/8',
    bodyLimit: 2048,
    pluginTimeout: undefined,
    requestIdHeader: 'x-request-id',
    closeTimeout: 500,
    drainDelay: 0,
    options: true,
    compileCache: false,
    help: false
  })
})

test('environment variables: TRELLIS_* and PORT, the flag wins over the variable', () => {
  const env = { PORT: '4000', TRELLIS_WORKERS: '2', TRELLIS_TRUST_PROXY: 'true', TRELLIS_PRETTY_LOGS: 'false', TRELLIS_BODY_LIMIT: '99', TRELLIS_PREFIX: '/v1', TRELLIS_LOG_LEVEL: 'error', TRELLIS_CLOSE_TIMEOUT: '750', TRELLIS_DRAIN_DELAY: '5000', TRELLIS_OPTIONS: '1' }
  const o = parseStartArgs(['app.js'], env)
  assert.equal(o.port, 4000)
  assert.equal(o.workers, 2)
  assert.equal(o.trustProxy, true)
  assert.equal(o.prettyLogs, false)
  assert.equal(o.bodyLimit, 99)
  assert.equal(o.prefix, '/v1')
  assert.equal(o.logLevel, 'error')
  assert.equal(o.closeTimeout, 750)
  assert.equal(o.drainDelay, 5000)
  assert.equal(o.options, true)
  assert.equal(parseStartArgs(['app.js'], { ...env, TRELLIS_PORT: '4001' }).port, 4001, 'TRELLIS_PORT before PORT')
  assert.equal(parseStartArgs(['--port', '5000', 'app.js'], { ...env, TRELLIS_PORT: '4001' }).port, 5000, 'the flag first')
  assert.equal(parseStartArgs(['app.js'], { KUBERNETES_SERVICE_HOST: '10.0.0.1' }).address, '0.0.0.0', 'in a Kubernetes pod, every interface')
})

test('--trust-proxy: true, false, a hop count or an address list', () => {
  assert.equal(parseStartArgs(['--trust-proxy', 'true', 'a.js'], {}).trustProxy, true)
  assert.equal(parseStartArgs(['--trust-proxy', 'false', 'a.js'], {}).trustProxy, false)
  assert.equal(parseStartArgs(['--trust-proxy', '2', 'a.js'], {}).trustProxy, 2)
  assert.equal(parseStartArgs(['--trust-proxy', '127.0.0.1', 'a.js'], {}).trustProxy, '127.0.0.1')
})

test('--workers auto is the number of available cores', () => {
  assert.equal(parseWorkers('auto', 6), 6)
  assert.equal(parseWorkers('AUTO', 0), 1)
  assert.equal(parseWorkers('4', 2), 4)
})

test('bad values are refused with a message naming the flag and the value', () => {
  const cases: Array<[string[], RegExp]> = [
    [['--port', 'http', 'a.js'], /--port must be a whole number, got "http"/],
    [['--port', '70000', 'a.js'], /--port must be between 0 and 65535, got 70000/],
    [['--workers', '0', 'a.js'], /--workers must be between 1/],
    [['--workers', 'many', 'a.js'], /--workers must be a whole number, got "many"/],
    [['--log-level', 'loud', 'a.js'], /--log-level must be one of fatal, error, warn, info, debug, trace, silent, got "loud"/],
    [['--body-limit', '-5', 'a.js'], /unknown option -5|--body-limit must be a whole number/],
    [['--close-timeout', '0', 'a.js'], /--close-timeout must be between 1/],
    [['--nope', 'a.js'], /unknown option --nope/],
    [['--port'], /--port needs a value/],
    [['a.js', 'b.js'], /one application file expected, got 2/]
  ]
  for (const [argv, message] of cases) assert.throws(() => parseStartArgs(argv, {}), (err: Error) => err instanceof UsageError && message.test(err.message), argv.join(' '))
  assert.throws(() => parseStartArgs(['a.js'], { TRELLIS_PRETTY_LOGS: 'maybe' }), /--pretty-logs must be true or false, got "maybe"/)
})

test('restart back-off doubles for a crash loop, is capped, and resets after a stable run', () => {
  const b = createBackoff(100, 1000, 5000)
  assert.deepEqual([b.next(10), b.next(10), b.next(10), b.next(10), b.next(10), b.next(10)], [100, 200, 400, 800, 1000, 1000])
  assert.equal(b.next(6000), 100, 'a worker that ran past stableMs restarts at the base delay')
  assert.equal(b.next(10), 200)
})
