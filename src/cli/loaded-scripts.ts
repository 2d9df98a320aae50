/**
 * What `trellis check` learns from V8 about the application it loads, through an in-process
 * inspector session: the file of every script compiled while it records (CommonJS, ES modules, and
 * code a loader such as tsx transformed, alike), and the lines where a function is defined.
 * Pauses are skipped, so a `debugger` statement in the application does not stop the process.
 */
import { Session } from 'node:inspector'
import { isAbsolute } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Lines (1-based, inclusive) of a function's text in a file, as V8 compiled it. */
export interface FunctionSpan { file: string, first: number, last: number }

const SLOT = '__trellisCheckFunction'

function fileOf (url: string): string | undefined {
  if (url.startsWith('file://')) {
    try { return fileURLToPath(url.replace(/[?#].*$/, '')) } catch { return undefined }
  }
  return isAbsolute(url) ? url : undefined
}

export class LoadedScripts {
  private readonly session = new Session()
  private readonly byId = new Map<string, string>()
  private readonly order: string[] = []
  private open = true

  constructor () {
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
      const props = this.post('Runtime.getProperties', { objectId, ownProperties: true }) as { internalProperties?: Array<{ name: string, value?: { value?: { scriptId: string, lineNumber: number } } }> } | undefined
      this.post('Runtime.releaseObject', { objectId })
      const location = props?.internalProperties?.find((p) => p.name === '[[FunctionLocation]]')?.value?.value
      const file = location === undefined ? undefined : this.byId.get(location.scriptId)
      if (location === undefined || file === undefined) return undefined
      const lines = Function.prototype.toString.call(fn).split('\n').length
      return { file, first: location.lineNumber + 1, last: location.lineNumber + lines }
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
