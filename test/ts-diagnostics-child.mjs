// The child process of test/ts-diagnostics.ts: compiles the root files it is given (argv[2], JSON:
// { roots, options, stripDirectives }; options as a tsconfig.json's compilerOptions) with the TypeScript API and prints the pre-emit diagnostics
// as JSON on stdout: { file, line, message } for one with a position (line from 0), { message } else.
// stripDirectives: the roots are read with every `// @ts-expect-error` turned into a plain comment.
import { readFileSync } from 'node:fs'
import ts from 'typescript'

const { roots, options: json, stripDirectives } = JSON.parse(process.argv[2])
const { options, errors } = ts.convertCompilerOptionsFromJson(json, process.cwd())
if (errors.length > 0) throw new Error(errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')).join('\n'))
const host = ts.createCompilerHost(options)
if (stripDirectives) {
  const original = host.getSourceFile.bind(host)
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => roots.includes(fileName)
    ? ts.createSourceFile(fileName, readFileSync(fileName, 'utf8').replace(/\/\/ @ts-expect-error\b/g, '// (expect error)'), languageVersion, true)
    : original(fileName, languageVersion, onError, shouldCreate)
}
const program = ts.createProgram(roots, options, host)
const found = ts.getPreEmitDiagnostics(program).map((d) => {
  const message = ts.flattenDiagnosticMessageText(d.messageText, '\n')
  if (d.file === undefined || d.start === undefined) return { message }
  return { file: d.file.fileName, line: d.file.getLineAndCharacterOfPosition(d.start).line, message }
})
process.stdout.write(JSON.stringify(found))
