/**
 * A minimal OTLP/HTTP receiver for the tests: it takes the JSON export requests of
 * @opentelemetry/exporter-trace-otlp-http and exporter-metrics-otlp-http (POST /v1/traces and
 * /v1/metrics, `application/json`) and keeps their spans and metric data points, decoded.
 */
import http from 'node:http'

export interface ReceivedSpan {
  service: string
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  kind: number
  start: bigint
  end: bigint
  attributes: Record<string, unknown>
  status: { code?: number, message?: string }
  events: Array<{ name: string, attributes: Record<string, unknown> }>
}

export interface ReceivedPoint { service: string, metric: string, unit: string, attributes: Record<string, unknown>, count: number, sum: number }

type AnyValue = { stringValue?: string, intValue?: string | number, doubleValue?: number, boolValue?: boolean, arrayValue?: { values?: AnyValue[] } }
type KeyValue = { key: string, value: AnyValue }

function value (v: AnyValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue
  if (v.intValue !== undefined) return Number(v.intValue)
  if (v.doubleValue !== undefined) return v.doubleValue
  if (v.boolValue !== undefined) return v.boolValue
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(value)
  return undefined
}

function attributes (list: KeyValue[] | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const kv of list ?? []) out[kv.key] = value(kv.value)
  return out
}

/** OTLP/JSON ids are hex strings (the exporters' JSON encoding); a base64 id (the proto3 JSON mapping) is turned into hex. */
function hexId (id: string | undefined): string {
  if (id === undefined || id === '') return ''
  return /^[0-9a-f]+$/i.test(id) ? id.toLowerCase() : Buffer.from(id, 'base64').toString('hex')
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = []
  readonly points: ReceivedPoint[] = []
  readonly requests: string[] = []
  private server = http.createServer((req, res) => { this.receive(req, res) })

  async start (): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    const { port } = this.server.address() as { port: number }
    return `http://127.0.0.1:${port}`
  }

  async stop (): Promise<void> {
    await new Promise<void>((resolve) => this.server.close(() => resolve()))
  }

  private receive (req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      this.requests.push(`${req.method} ${req.url} ${req.headers['content-type']}`)
      if (req.method !== 'POST' || !String(req.headers['content-type']).startsWith('application/json')) {
        res.writeHead(415, { 'content-type': 'application/json' }).end('{"message":"send OTLP/HTTP JSON"}')
        return
      }
      let body: any
      try { body = JSON.parse(Buffer.concat(chunks).toString('utf8')) } catch {
        res.writeHead(400, { 'content-type': 'application/json' }).end('{"message":"bad JSON"}')
        return
      }
      if (req.url === '/v1/traces') this.takeSpans(body)
      else if (req.url === '/v1/metrics') this.takeMetrics(body)
      else { res.writeHead(404, { 'content-type': 'application/json' }).end('{}'); return }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  }

  private takeSpans (body: any): void {
    for (const resourceSpans of body.resourceSpans ?? []) {
      const service = String(attributes(resourceSpans.resource?.attributes)['service.name'])
      for (const scope of resourceSpans.scopeSpans ?? []) {
        for (const s of scope.spans ?? []) {
          this.spans.push({
            service,
            traceId: hexId(s.traceId),
            spanId: hexId(s.spanId),
            parentSpanId: hexId(s.parentSpanId),
            name: s.name,
            kind: s.kind,
            start: BigInt(s.startTimeUnixNano),
            end: BigInt(s.endTimeUnixNano),
            attributes: attributes(s.attributes),
            status: s.status ?? {},
            events: (s.events ?? []).map((e: any) => ({ name: e.name, attributes: attributes(e.attributes) }))
          })
        }
      }
    }
  }

  private takeMetrics (body: any): void {
    for (const resourceMetrics of body.resourceMetrics ?? []) {
      const service = String(attributes(resourceMetrics.resource?.attributes)['service.name'])
      for (const scope of resourceMetrics.scopeMetrics ?? []) {
        for (const m of scope.metrics ?? []) {
          for (const p of m.histogram?.dataPoints ?? []) {
            this.points.push({ service, metric: m.name, unit: m.unit, attributes: attributes(p.attributes), count: Number(p.count), sum: Number(p.sum) })
          }
        }
      }
    }
  }
}

/** The spans as an indented tree per trace, with durations and the main attributes: printed by the test. */
export function traceDump (spans: ReceivedSpan[]): string {
  const lines: string[] = []
  const byParent = new Map<string, ReceivedSpan[]>()
  const ids = new Set(spans.map((s) => s.spanId))
  for (const s of spans) {
    const key = ids.has(s.parentSpanId) ? s.parentSpanId : ''
    byParent.set(key, [...(byParent.get(key) ?? []), s])
  }
  const show = (s: ReceivedSpan, depth: number): void => {
    const ms = Number(s.end - s.start) / 1e6
    const attrs = ['http.route', 'http.response.status_code', 'url.path', 'error.type'].filter((k) => s.attributes[k] !== undefined).map((k) => `${k}=${String(s.attributes[k])}`)
    const kind = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'][s.kind] ?? String(s.kind)
    lines.push(`${'  '.repeat(depth)}${s.name} [${s.service}, ${kind}${s.status.code === 2 ? ', ERROR' : ''}] ${ms.toFixed(2)} ms ${attrs.join(' ')}`)
    for (const child of (byParent.get(s.spanId) ?? []).sort((a, b) => Number(a.start - b.start))) show(child, depth + 1)
  }
  const roots = (byParent.get('') ?? []).sort((a, b) => Number(a.start - b.start))
  for (const r of roots) {
    lines.push(`trace ${r.traceId}`)
    show(r, 1)
  }
  return lines.join('\n')
}
