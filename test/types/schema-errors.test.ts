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
import ts from 'typescript'

const file = join(__dirname, 'fixtures', 'schema-errors.mts')
const MARK = '// @error '

interface Reported { line: number; message: string }

function compile (): Reported[] {
  const program = ts.createProgram([file], {
    noEmit: true,
    strict: true,
    skipLibCheck: true,
    types: ['node'],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.Node16,
    moduleResolution: ts.ModuleResolutionKind.Node16
  })
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
    assert.ok(d.file !== undefined && d.start !== undefined && d.file.fileName === file, `an error outside the fixture: ${message}`)
    return { line: d.file.getLineAndCharacterOfPosition(d.start).line + 1, message }
  })
}

test('errors against a route schema: on the marked lines, naming the resolved type, never the schema', () => {
  const expected = new Map<number, string>()
  readFileSync(file, 'utf8').split('\n').forEach((text, index) => {
    const at = text.indexOf(MARK)
    if (at !== -1) expected.set(index + 1, text.slice(at + MARK.length).trim())
  })
  assert.ok(expected.size >= 6, 'the fixture marks its errors')

  const reported = compile()
  assert.deepEqual(reported.map((r) => r.line).sort((a, b) => a - b), [...expected.keys()], reported.map((r) => `${r.line}: ${r.message}`).join('\n\n'))
  for (const { line, message } of reported) {
    assert.ok(message.includes(expected.get(line)!), `line ${line}: expected the message to contain\n  ${expected.get(line)}\ngot\n${message}`)
    assert.doesNotMatch(message, /ObjectType<|PropertiesType<|SchemaToType<|readonly type: "object"/, `line ${line} spells out the schema:\n${message}`)
  }
})
