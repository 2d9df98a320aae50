/**
 * The `trellis` command: `trellis start [options] <app-file>`, `trellis check <app-file>`,
 * `trellis build <app-file>`, `trellis help`, `trellis version`.
 * In a cluster worker it skips straight to serving (the primary already checked the options).
 */
import cluster from 'node:cluster'
import { parseStartArgs, UsageError, type StartOptions } from './args'
import { usage, startUsage, checkUsage, buildUsage } from './help'
import { lineFlag } from './line'
import type { BuildArgs } from './build'
import { VERSION } from '../base/version'

// Each command's module is loaded when that command runs: `trellis start` loads neither the
// Fastify 5 checks nor the ahead-of-time compiler, and a worker never loads the primary's code.

function fail (message: string): never {
  process.stderr.write(`trellis: ${message}\n`)
  process.exit(1)
}

async function start (argv: string[]): Promise<void> {
  let opts: StartOptions
  try {
    opts = parseStartArgs(argv)
  } catch (err) {
    if (err instanceof UsageError) fail(`${err.message}\n\n${startUsage()}`)
    throw err
  }
  if (opts.help) { process.stdout.write(startUsage()); return }
  if (opts.file === undefined) fail(`missing the application file\n\n${startUsage()}`)
  if (opts.workers > 1 && cluster.isPrimary) {
    const { runPrimary } = await import('./primary')
    try {
      runPrimary(opts)
    } catch (err) {
      if (err instanceof UsageError) fail(err.message)
      throw err
    }
    return
  }
  const { serve, STARTUP_FAILED } = await import('./serve')
  try {
    await serve(opts)
  } catch (err) {
    if (err instanceof UsageError && cluster.isWorker && process.send !== undefined) {
      // every worker meets it: the primary says it once and stops
      process.send({ type: STARTUP_FAILED, message: err.message }, () => process.exit(1))
      return
    }
    if (err instanceof UsageError) fail(err.message)
    process.stderr.write(`trellis: the application failed to start: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`)
    process.exit(1)
  }
}

async function runCheck (argv: string[]): Promise<void> {
  let flag: { value: string | undefined, rest: string[] }
  try {
    flag = lineFlag(argv)
  } catch (err) {
    if (err instanceof UsageError) fail(`${err.message}\n\n${checkUsage()}`)
    throw err
  }
  const file = flag.rest.find((a) => !a.startsWith('-'))
  if (file === undefined || argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(checkUsage())
    if (file === undefined && !argv.includes('--help') && !argv.includes('-h')) process.exitCode = 1
    return
  }
  const { check, formatFindings } = await import('./check')
  let result
  try {
    result = await check(file, flag.value)
  } catch (err) {
    if (err instanceof UsageError) fail(err.message)
    fail(`the check failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`)
  }
  process.stdout.write(formatFindings(file, result))
  // exit 1 when something breaks on Fastify 5; the process may hold handles the app opened
  process.exit(result.findings.some((f) => f.severity === 'breaks') ? 1 : 0)
}

async function runBuild (argv: string[]): Promise<void> {
  const { build, formatBuild, parseBuildArgs, DEFAULT_BUILD_DIR } = await import('./build')
  let args: BuildArgs
  try {
    args = parseBuildArgs(argv)
  } catch (err) {
    if (err instanceof UsageError) fail(`${err.message}\n\n${buildUsage()}`)
    throw err
  }
  if (args.help) { process.stdout.write(buildUsage()); return }
  if (args.file === undefined) fail(`missing the application file\n\n${buildUsage()}`)
  if (args.target === 'worker') {
    const { buildWorker, formatWorkerBuild, DEFAULT_WORKER_DIR } = await import('./worker-build')
    let built
    try {
      built = await buildWorker(args.file, args.out ?? DEFAULT_WORKER_DIR, args.options, args.line)
    } catch (err) {
      if (err instanceof UsageError) fail(err.message)
      if ((err as { code?: unknown }).code === 'TRL_ERR_WORKER_UNAVAILABLE') fail(`trellis build --target worker: ${(err as Error).message}`)
      fail(`the application failed to build: ${err instanceof Error ? err.stack ?? err.message : String(err)}`)
    }
    process.stdout.write(formatWorkerBuild(args.file, built))
    process.exit(0)
  }
  let result
  try {
    result = await build(args.file, args.out ?? DEFAULT_BUILD_DIR, args.options, args.line)
  } catch (err) {
    if (err instanceof UsageError) fail(err.message)
    fail(`the application failed to build: ${err instanceof Error ? err.stack ?? err.message : String(err)}`)
  }
  process.stdout.write(formatBuild(args.file, result))
  // the process may hold handles the application opened
  process.exit(0)
}

export async function main (argv: string[]): Promise<void> {
  const [command, ...rest] = argv
  switch (command) {
    case 'start': return await start(rest)
    case 'check': return await runCheck(rest)
    case 'build': return await runBuild(rest)
    case 'version': case '--version': case '-v': process.stdout.write(`${VERSION}\n`); return
    case undefined: case 'help': case '--help': case '-h':
      process.stdout.write(rest[0] === 'start' ? startUsage() : rest[0] === 'build' ? buildUsage() : rest[0] === 'check' ? checkUsage() : usage()); return
    default: fail(`unknown command ${JSON.stringify(command)}\n\n${usage()}`)
  }
}
