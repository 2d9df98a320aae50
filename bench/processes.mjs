// Processes of the whole-server benchmark (bench/run.mjs, bench/profile.mjs): server children pinned
// with taskset, their CPU time over IPC, and the load generators (wrk, else autocannon's CLI), each in
// its own process. Only processes started here are ever signalled, by PID.
import { spawn, execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { existsSync, writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const root = join(dirname(fileURLToPath(import.meta.url)), '..')
/** The server child's entry (`node bench/run.mjs --server <name>`). */
const serverMain = join(root, 'bench', 'run.mjs')

/** Every process this module started (servers, load generators): killed by PID on exit. */
export const children = new Set()

export function hasCommand (cmd) {
  try { execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }); return true } catch { return false }
}

export function nodeBinary (want = process.env.BENCH_NODE) {
  if (want === undefined || want === '') return process.execPath
  if (want.includes('/')) return want
  const script = join(root, 'scripts', 'node-line.mjs')
  if (!existsSync(script)) throw new Error('BENCH_NODE needs scripts/node-line.mjs (merge main)')
  return execFileSync(process.execPath, [script, want], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim()
}

/** [server cpu list, load generator cpu list] or nulls when nothing is pinned. */
export function cpuPlan () {
  const n = typeof availableParallelism === 'function' ? availableParallelism() : cpus().length
  if (n < 2 || !hasCommand('taskset')) return { server: null, client: null }
  return { server: String(n - 1), client: '0' }
}

export function pinned (cpu, cmd, args) {
  return cpu === null ? [cmd, args] : ['taskset', ['-c', cpu, cmd, ...args]]
}

export function startChild (name, node, cpu, nodeArgs = []) {
  return new Promise((resolve, reject) => {
    const [cmd, args] = pinned(cpu, node, [...nodeArgs, serverMain, '--server', name])
    const child = spawn(cmd, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], cwd: root })
    children.add(child)
    child.once('message', (msg) => resolve({ child, port: msg.port, version: msg.version }))
    child.once('error', reject)
    child.once('exit', (code) => { children.delete(child); reject(new Error(`${name} server exited early (code ${code})`)) })
  })
}

/** CPU time (µs) the server process has used so far. */
export function askCpu (child) {
  return askUsage(child).then((u) => u.cpu)
}

/**
 * The server process's resource counters, read by the process itself: CPU µs (user + system, and
 * each), minor page faults, voluntary and involuntary context switches. Differences around a
 * measurement divided by its requests say where a server's time per request goes besides its own code.
 */
export function askUsage (child) {
  return askChild(child, 'cpu')
}

/** Sends `msg` to a server child (bench/run.mjs --server) and resolves to its answer; an answer with `error` rejects. */
export function askChild (child, msg) {
  return new Promise((resolve, reject) => {
    child.once('message', (reply) => reply !== null && typeof reply === 'object' && reply.error !== undefined ? reject(new Error(reply.error)) : resolve(reply))
    child.send(msg)
  })
}

/** `after - before` for every counter askUsage reports, divided by `requests`. */
export function usagePerRequest (before, after, requests) {
  const n = Math.max(1, requests)
  const out = {}
  for (const key of Object.keys(after)) out[key] = (after[key] - before[key]) / n
  return out
}

export function stopChild (child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) { children.delete(child); resolve(); return }
    child.removeAllListeners('exit')
    const timer = setTimeout(() => { try { process.kill(child.pid, 'SIGKILL') } catch {} }, 3000)
    child.once('exit', () => { clearTimeout(timer); children.delete(child); resolve() })
    process.kill(child.pid, 'SIGTERM') // only the child we started, by its PID (taskset execs node in place)
  })
}

export function killAllStarted () {
  for (const child of children) {
    try { process.kill(child.pid, 'SIGKILL') } catch {}
  }
}

// ------------------------------------------------------------------ load generators
export function run (cmd, args, timeoutMs) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => { out += d })
    child.stderr.on('data', (d) => { err += d })
    const timer = setTimeout(() => { try { process.kill(child.pid, 'SIGKILL') } catch {} }, timeoutMs)
    child.once('error', (e) => { clearTimeout(timer); children.delete(child); reject(e) })
    child.once('exit', (code) => {
      clearTimeout(timer)
      children.delete(child)
      if (code !== 0) reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${err || out}`))
      else resolve(out)
    })
  })
}

export function wrkLoadGen (cpu, workdir, connections) {
  const scripts = new Map()
  const scriptFor = (route) => {
    if (route.body === undefined) return null
    if (!scripts.has(route.key)) {
      const file = join(workdir, `${route.key}.lua`)
      writeFileSync(file, `wrk.method = "${route.method}"\nwrk.body = [==[${route.body}]==]\nwrk.headers["Content-Type"] = "application/json"\n`)
      scripts.set(route.key, file)
    }
    return scripts.get(route.key)
  }
  const ms = (value, unit) => Number(value) * ({ us: 0.001, ms: 1, s: 1000 }[unit] ?? NaN)
  return {
    name: `wrk (${execFileSync('sh', ['-c', 'wrk -v 2>&1 | head -1'], { encoding: 'utf8' }).trim().split(' ').slice(0, 2).join(' ')}, 1 thread)`,
    async load (url, route, seconds) {
      const script = scriptFor(route)
      const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--latency', ...(script !== null ? ['-s', script] : []), url + route.path]
      const [cmd, full] = pinned(cpu, 'wrk', args)
      const out = await run(cmd, full, (seconds + 30) * 1000)
      const total = Number(/(\d+) requests in/.exec(out)?.[1])
      const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1])
      const lat = (p) => { const m = new RegExp(`\\s${p}%\\s+([\\d.]+)(us|ms|s)`).exec(out); return m === null ? NaN : ms(m[1], m[2]) }
      const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0)
      const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out)
      const errors = sock === null ? 0 : Number(sock[1]) + Number(sock[2]) + Number(sock[3]) + Number(sock[4])
      if (!Number.isFinite(total) || !Number.isFinite(rps)) throw new Error(`cannot read wrk output:\n${out}`)
      return { total, rps, p50: lat(50), p99: lat(99), non2xx, errors }
    }
  }
}

export function autocannonLoadGen (cpu, connections) {
  const bin = require.resolve('autocannon/autocannon.js')
  return {
    name: `autocannon ${require('autocannon/package.json').version} (CLI, own process)`,
    async load (url, route, seconds) {
      const args = [bin, '-c', String(connections), '-d', String(seconds), '-j', '-m', route.method]
      if (route.body !== undefined) args.push('-H', 'content-type=application/json', '-b', route.body)
      args.push(url + route.path)
      const [cmd, full] = pinned(cpu, process.execPath, args)
      const r = JSON.parse(await run(cmd, full, (seconds + 30) * 1000))
      return { total: r.requests.total, rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors + r.timeouts }
    }
  }
}
