/**
 * A bounded keep-alive load on 127.0.0.1 that accounts for every request: each of `connections`
 * sockets sends one `GET path` at a time (with a unique `request-id`), reads the answer, and sends
 * the next; a socket that closes or fails is reopened. Each connection knows the worker it reached
 * (the `pid` of the JSON answers), so a fault can be charged to the worker it happened on. Unlike
 * autocannon, the requests in flight on each connection are visible at any moment (`inFlight()`),
 * which is what "errors ≤ the dead worker's in-flight requests" is measured against.
 */
import net from 'node:net'

export interface Failure { id: string, pid: number | null, error: string }

export interface LoadStats {
  answered: number
  byStatus: Record<number, number>
  byPid: Record<number, number>
  failures: Failure[]
  refusedConnects: number
}

interface Conn { socket: net.Socket | null, pid: number | null, outstanding: string | null }

export interface Load {
  stats: LoadStats
  /** The requests sent and not yet answered, with the worker each connection was on (null: no answer yet on it). */
  inFlight: () => Array<{ id: string, pid: number | null }>
  stop: () => Promise<LoadStats>
}

export function keepAliveLoad (port: number, options: { connections: number, path: string, prefix?: string }): Load {
  const stats: LoadStats = { answered: 0, byStatus: {}, byPid: {}, failures: [], refusedConnects: 0 }
  const conns: Conn[] = []
  let running = true
  let sequence = 0
  const prefix = options.prefix ?? 'load'

  const open = (conn: Conn): void => {
    if (!running) return
    const socket = net.connect(port, '127.0.0.1')
    conn.socket = socket
    conn.pid = null
    conn.outstanding = null
    let buffer = Buffer.alloc(0)
    let connected = false
    const send = (): void => {
      if (!running) { socket.end(); return }
      const id = `${prefix}-${++sequence}`
      conn.outstanding = id
      socket.write(`GET ${options.path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nrequest-id: ${id}\r\n\r\n`)
    }
    socket.setNoDelay(true)
    socket.on('connect', () => { connected = true; send() })
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      for (;;) {
        const text = buffer.toString('latin1')
        const end = text.indexOf('\r\n\r\n')
        if (end === -1) return
        const head = text.slice(0, end)
        const length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0)
        if (buffer.length < end + 4 + length) return
        const body = buffer.subarray(end + 4, end + 4 + length).toString('utf8')
        buffer = buffer.subarray(end + 4 + length)
        const status = Number(head.slice(9, 12))
        stats.answered++
        stats.byStatus[status] = (stats.byStatus[status] ?? 0) + 1
        try {
          const pid = (JSON.parse(body) as { pid?: unknown }).pid
          if (typeof pid === 'number') { conn.pid = pid; stats.byPid[pid] = (stats.byPid[pid] ?? 0) + 1 }
        } catch {}
        conn.outstanding = null
        if (/\r\nconnection: *close/i.test(head)) { socket.end(); return }
        send()
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      if (!connected) stats.refusedConnects++
      else if (conn.outstanding !== null) stats.failures.push({ id: conn.outstanding, pid: conn.pid, error: 'closed without an answer' })
      conn.outstanding = null
      conn.socket = null
      if (running) setTimeout(() => { open(conn) }, connected ? 5 : 50)
    })
  }

  for (let i = 0; i < options.connections; i++) {
    const conn: Conn = { socket: null, pid: null, outstanding: null }
    conns.push(conn)
    open(conn)
  }

  return {
    stats,
    inFlight: () => conns.filter((c) => c.outstanding !== null).map((c) => ({ id: c.outstanding as string, pid: c.pid })),
    stop: async () => {
      running = false
      // the requests still out get their answers (or fail) before the connections close
      const deadline = Date.now() + 3000
      while (conns.some((c) => c.socket !== null) && Date.now() < deadline) {
        for (const c of conns) if (c.socket !== null && c.outstanding === null) c.socket.end()
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      for (const c of conns) c.socket?.destroy()
      return stats
    }
  }
}
