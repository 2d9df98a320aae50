/**
 * How long each part of the plugin tree took to load, as Fastify 5's `printPlugins()` shows it
 * (avvio's time tree): the root, every plugin (skip-override ones included) with the plugins it
 * registered, and every `after()` callback (`bound _after`), each with its milliseconds.
 */
import { performance } from 'node:perf_hooks'

export class LoadTime {
  readonly nodes: LoadTime[] = []
  private readonly start = performance.now()
  /** Milliseconds from the start until the part and everything it registered had loaded; null while loading. */
  ms: number | null = null

  constructor (readonly label: string) {}

  /** A part that starts loading now, inside this one. */
  child (label: string): LoadTime {
    const node = new LoadTime(label)
    this.nodes.push(node)
    return node
  }

  end (): void {
    if (this.ms === null) this.ms = Math.round(performance.now() - this.start)
  }
}

/** The tree in avvio's layout: `label N ms`, children drawn with box characters. */
export function printLoadTimes (root: LoadTime): string {
  const lines: string[] = []
  const walk = (node: LoadTime, lead: string, childLead: string): void => {
    lines.push(`${lead}${node.label} ${node.ms ?? 0} ms`)
    node.nodes.forEach((child, i) => {
      const last = i === node.nodes.length - 1
      const branch = (last ? '└─' : '├─') + (child.nodes.length === 0 ? '─ ' : '┬ ')
      walk(child, childLead + branch, childLead + (last ? '  ' : '│ '))
    })
  }
  walk(root, '', '')
  return lines.join('\n') + '\n'
}
