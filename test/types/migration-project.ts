/**
 * Shared by the migration tests: the two code blocks of docs/typescript.md ("Before (Fastify 4):",
 * "After (trellis):"), and a throwaway consumer project in conformance/.types-work/migration whose
 * node_modules link to the real packages, compiled with tsc (node16 resolution, package "exports").
 * Not under conformance/.work, whose node_modules (the runtime ratchet's install of Fastify's test
 * dependencies, pino 8 among them) resolution would otherwise reach before the repository's own.
 */
import assert from 'node:assert/strict'
import { runTscAsync, TscResult } from '../run-tsc'
import { mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

export const root = join(__dirname, '..', '..')
const work = join(root, 'conformance', '.types-work', 'migration')

function codeBlockAfter (markdown: string, heading: string): string {
  const at = markdown.indexOf(heading)
  assert.ok(at >= 0, `docs/typescript.md has no "${heading}"`)
  const match = /```ts\n([\s\S]*?)```/.exec(markdown.slice(at))
  assert.ok(match !== null, `no ts code block after "${heading}"`)
  return match[1]
}

const doc = readFileSync(join(root, 'docs', 'typescript.md'), 'utf8')
export const before = codeBlockAfter(doc, 'Before (Fastify 4):')
export const after = codeBlockAfter(doc, 'After (trellis):')

/** A consumer project: the source file, and node_modules entries linking to real packages. */
export function project (name: string, files: Record<string, string>, links: Record<string, string>): string {
  const dir = join(work, name)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(join(dir, 'node_modules'), { recursive: true })
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true }))
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text)
  for (const [pkg, target] of Object.entries(links)) symlinkSync(target, join(dir, 'node_modules', pkg), 'dir')
  return dir
}

export function tsc (dir: string, ...files: string[]): Promise<TscResult> {
  return runTscAsync([
    '--noEmit', '--strict', '--skipLibCheck', '--esModuleInterop', '--preserveSymlinks',
    '--types', 'node', '--typeRoots', join(root, 'node_modules', '@types'), '--target', 'es2022',
    '--module', 'node16', '--moduleResolution', 'node16', '--pretty', 'false', ...files
  ], dir)
}
