/**
 * Type errors against a route schema read well: compiles test/types/fixtures/schema-errors.mts
 * against the built declarations (`npm run build` first) and checks that each error is on the line
 * its `// @error <text>` comment marks (the returned expression, the `reply.send` argument, the
 * `handler` property; never the call or the route options), that the message contains that text
 * (the resolved object type, `{ id: number; name: string; … }`), and that no message spells out
 * the schema or the mapper's internals (`ObjectType<{ readonly type: "object"; … }, 9>`).
 */
import { test } from 'node:test'
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { diagnostics } from '../ts-diagnostics'

const file = join(__dirname, 'fixtures', 'schema-errors.mts')
const MARK = '// @error '

interface Reported { line: number; message: string }

/** The fixture's errors (compiled in a child process: ../ts-diagnostics.ts); one outside the fixture fails the test. */
async function compile (): Promise<Reported[]> {
  const found = await diagnostics([file], {
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    target: 'es2022',
    module: 'node16',
    moduleResolution: 'node16'
  })
  return found.map((d) => {
    assert.ok(d.file === file && d.line !== undefined, `an error outside the fixture: ${d.message}`)
    return { line: d.line + 1, message: d.message }
  })
}

test('errors against a route schema: on the marked lines, naming the resolved type, never the schema', async () => {
  const expected = new Map<number, string>()
  readFileSync(file, 'utf8').split('\n').forEach((text, index) => {
    const at = text.indexOf(MARK)
    if (at !== -1) expected.set(index + 1, text.slice(at + MARK.length).trim())
  })
  assert.ok(expected.size >= 6, 'the fixture marks its errors')

  const reported = await compile()
  assert.deepEqual(reported.map((r) => r.line).sort((a, b) => a - b), [...expected.keys()], reported.map((r) => `${r.line}: ${r.message}`).join('\n\n'))
  for (const { line, message } of reported) {
    assert.ok(message.includes(expected.get(line)!), `line ${line}: expected the message to contain\n  ${expected.get(line)}\ngot\n${message}`)
    assert.doesNotMatch(message, /ObjectType<|PropertiesType<|SchemaToType<|readonly type: "object"/, `line ${line} spells out the schema:\n${message}`)
  }
})
