/**
 * Harness of the inference type tests (test/types/inference/*.mts|cts), compiled against the built
 * declarations through the package "exports", as users' TypeScript sees them (`npm test` builds
 * first). Two checks per module format, so that no case can pass vacuously:
 *  - positive: the fixtures compile, so every assertion holds and every `// @ts-expect-error` is
 *    used (TypeScript reports an unused one);
 *  - negative: with the directives turned into plain comments, the errors are exactly on the lines
 *    they marked: each negative case fails by itself, and nothing else in the fixtures does.
 * ES-module and CommonJS fixtures are compiled as two programs, as two projects would be (each
 * declares its own SchemaRegistry entries; see docs/typescript.md on mixing the two).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { diagnostics } from '../ts-diagnostics'

const dir = join(__dirname, 'inference')
const options = {
  noEmit: true,
  strict: true,
  skipLibCheck: true,
  types: ['node'],
  target: 'es2022',
  module: 'node16',
  moduleResolution: 'node16'
}
const DIRECTIVE = /\/\/ @ts-expect-error\b/g

interface Located { file: string; line: number; message: string }

/** The roots' diagnostics (compiled in a child process: ../ts-diagnostics.ts), split into those in the roots and the others. */
async function compile (roots: string[], stripDirectives = false): Promise<{ located: Located[]; other: string[] }> {
  const located: Located[] = []
  const other: string[] = []
  for (const d of await diagnostics(roots, options, stripDirectives)) {
    if (d.file === undefined || d.line === undefined || !roots.includes(d.file)) { other.push(d.message); continue }
    located.push({ file: d.file, line: d.line, message: d.message })
  }
  return { located, other }
}

const show = (list: Located[]): string => list.map((d) => `${d.file.slice(dir.length + 1)}:${d.line + 1} ${d.message}`).join('\n')

/** Registers the positive or the negative check of the fixtures of one module format. */
export function inferenceTypeTests (format: 'mts' | 'cts', check: 'positive' | 'negative', minimumNegatives = 1): void {
  const roots = readdirSync(dir).filter((name) => name.endsWith(`.${format}`)).sort().map((name) => join(dir, name))
  if (check === 'positive') {
    test(`the .${format} inference fixtures compile: positive cases hold, every @ts-expect-error is used`, async () => {
      assert.ok(roots.length > 0, 'fixtures exist')
      const { located, other } = await compile(roots)
      assert.deepEqual(other, [])
      assert.equal(located.length, 0, show(located))
    })
    return
  }
  test(`.${format} fixtures: each @ts-expect-error marks a line that fails without it, and only those lines fail`, async () => {
    const marked = new Set<string>()
    for (const file of roots) {
      readFileSync(file, 'utf8').split('\n').forEach((text, index) => { if (DIRECTIVE.test(text)) marked.add(`${file}:${index + 1}`); DIRECTIVE.lastIndex = 0 })
    }
    assert.ok(marked.size >= minimumNegatives, `expected at least ${minimumNegatives} negative cases, found ${marked.size}`)
    const { located, other } = await compile(roots, true)
    assert.deepEqual(other, [])
    const failing = new Set(located.map((d) => `${d.file}:${d.line}`))
    const compiling = [...marked].filter((key) => !failing.has(key)).map((key) => key.slice(dir.length + 1))
    assert.deepEqual(compiling, [], 'negative cases that compile')
    const unexpected = located.filter((d) => !marked.has(`${d.file}:${d.line}`))
    assert.equal(unexpected.length, 0, show(unexpected))
  })
}
