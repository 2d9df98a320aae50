/**
 * What `trellis check` learns from V8 about the application it loads, through an in-process
 * inspector session: the file of every script compiled while it records (CommonJS, ES modules, and
 * code a loader such as tsx transformed, alike), and the lines where a function is defined.
 * Pauses are skipped, so a `debugger` statement in the application does not stop the process.
 */
import { Session } from 'node:inspector'
import { isAbsolute } from 'node:path'
import { findSourceMap } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * Lines (1-based, inclusive) of a function's text in its source file: through the script's source
 * map when it has one (code a loader such as tsx transformed), else as V8 compiled it.
 */
export interface FunctionSpan { file: string, first: number, last: number }

const SLOT = '__trellisCheckFunction'

function fileOf (url: string): string | undefined {
  if (url.startsWith('file://')) {
    try { return fileURLToPath(url.replace(/[?#].*$/, '')) } catch { return undefined }
  }
  return isAbsolute(url) ? url : undefined
}

interface Position { line: number, column: number }

/** The span between two 0-based positions of a compiled file, in the source its source map names; undefined without a map. */
function original (file: string, start: Position, end: Position): FunctionSpan | undefined {
  let map: ReturnType<typeof findSourceMap>
  try { map = findSourceMap(file) ?? findSourceMap(pathToFileURL(file).href) } catch { return undefined }
  if (map === undefined) return undefined
  const from = map.findEntry(start.line, start.column) as { originalSource?: string, originalLine?: number }
  const to = map.findEntry(end.line, end.column) as { originalSource?: string, originalLine?: number }
  if (from.originalLine === undefined || to.originalLine === undefined || from.originalSource !== to.originalSource) return undefined
  const source = from.originalSource === undefined ? file : fileOf(from.originalSource) ?? file
  return { file: source, first: from.originalLine + 1, last: Math.max(from.originalLine, to.originalLine) + 1 }
}

export class LoadedScripts {
  private readonly session = new Session()
  private readonly byId = new Map<string, string>()
  private readonly order: string[] = []
  private open = true

  constructor () {
    // keeps the source maps of what loads from now on (tsx's, for one): see spanOf
    process.setSourceMapsEnabled(true)
    this.session.connect()
    this.session.on('Debugger.scriptParsed', (message: { params: { scriptId: string, url: string } }) => {
      const file = fileOf(message.params.url)
      if (file === undefined) return
      this.byId.set(message.params.scriptId, file)
      if (!this.order.includes(file)) this.order.push(file)
    })
    this.post('Debugger.enable')
    this.post('Debugger.setSkipAllPauses', { skip: true })
  }

  /** Posts a command; the in-process session answers synchronously (undefined when it did not). */
  private post (method: string, params?: object): any {
    let result: unknown
    this.session.post(method, params, (err, value) => { if (err === null) result = value })
    return result
  }

  /** The files of the scripts compiled so far, in the order V8 compiled them. */
  files (): string[] {
    return [...this.order]
  }

  /** Where `fn` is defined, or undefined (a native or bound function, or V8 did not say). */
  spanOf (fn: object): FunctionSpan | undefined {
    if (!this.open || typeof fn !== 'function') return undefined
    const global = globalThis as Record<string, unknown>
    global[SLOT] = fn
    try {
      const evaluated = this.post('Runtime.evaluate', { expression: `globalThis.${SLOT}` }) as { result?: { objectId?: string } } | undefined
      const objectId = evaluated?.result?.objectId
      if (objectId === undefined) return undefined
      const props = this.post('Runtime.getProperties', { objectId, ownProperties: true }) as { internalProperties?: Array<{ name: string, value?: { value?: { scriptId: string, lineNumber: number, columnNumber: number } } }> } | undefined
      this.post('Runtime.releaseObject', { objectId })
      const location = props?.internalProperties?.find((p) => p.name === '[[FunctionLocation]]')?.value?.value
      const file = location === undefined ? undefined : this.byId.get(location.scriptId)
      if (location === undefined || file === undefined) return undefined
      const lines = Function.prototype.toString.call(fn).split('\n')
      const last = lines[lines.length - 1]
      const end = { line: location.lineNumber + lines.length - 1, column: lines.length === 1 ? location.columnNumber + last.length - 1 : last.length - 1 }
      return original(file, { line: location.lineNumber, column: location.columnNumber }, end) ??
        { file, first: location.lineNumber + 1, last: end.line + 1 }
    } finally {
      Reflect.deleteProperty(global, SLOT)
    }
  }

  stop (): void {
    if (!this.open) return
    this.open = false
    this.post('Debugger.disable')
    this.session.disconnect()
  }
}
