/**
 * pino-pretty is optional: `--pretty-logs` uses it when the application (or trellis) can resolve it,
 * and otherwise says how to install it and keeps JSON logs.
 */
import { createRequire } from 'node:module'
import { join } from 'node:path'

export function resolvePrettyTarget (appPath: string, cwd = process.cwd()): string | undefined {
  for (const from of [appPath, join(cwd, 'noop.js'), __filename]) {
    try { return createRequire(from).resolve('pino-pretty') } catch {}
  }
  return undefined
}

export const PRETTY_MISSING = 'trellis: --pretty-logs needs the optional package pino-pretty (npm install --save-dev pino-pretty); logging JSON instead'
