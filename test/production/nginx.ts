/**
 * Runs Debian's nginx for a test: a generated config in a temp dir (its own pid file, error log and
 * temp paths; no system config is read), on a loopback port, in the foreground so the test owns its
 * PID and stops it by that PID.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { join } from 'node:path'
import { sleep, tempDir } from './helpers'

/** The proxy part of the config, the same shape docs/deployment.md recommends. */
export function nginxConfig (dir: string, listenPort: number, upstreamPorts: number[]): string {
  const runAsRoot = process.getuid?.() === 0 ? 'user root root;\n' : ''
  return `${runAsRoot}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;

  # an outer TLS terminator may already have set X-Forwarded-Proto; otherwise this hop's scheme
  map $http_x_forwarded_proto $forwarded_proto { default $http_x_forwarded_proto; "" $scheme; }

  upstream trellis {
${upstreamPorts.map((p) => `    server 127.0.0.1:${p} max_fails=0;`).join('\n')}
    keepalive 32;
  }
  server {
    listen 127.0.0.1:${listenPort};
    location / {
      proxy_pass http://trellis;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $forwarded_proto;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_set_header X-Request-Id $request_id;
      add_header X-Request-Id $request_id always;
      # a closing instance answers 503 (or refuses the connection): try the next one
      proxy_next_upstream error timeout http_502 http_503;
    }
  }
}
`
}

export interface Nginx { port: number; child: ChildProcess; stop: () => Promise<void>; errorLog: () => string }

export async function startNginx (binary: string, listenPort: number, upstreamPorts: number[]): Promise<Nginx> {
  const dir = tempDir('trellis-nginx-')
  writeFileSync(join(dir, 'nginx.conf'), nginxConfig(dir, listenPort, upstreamPorts))
  // -e: the startup error log before the config is read (else /var/log/nginx/error.log)
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr?.on('data', (c: Buffer) => { stderr += c.toString() })
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()))
  const errorLog = (): string => { try { return readFileSync(join(dir, 'error.log'), 'utf8') } catch { return '' } }
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) { child.kill('SIGTERM'); await exited }
  }
  const deadline = Date.now() + 10000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`nginx exited at start: ${stderr}${errorLog()}`)
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect(listenPort, '127.0.0.1', () => { s.destroy(); resolve(true) })
      s.on('error', () => resolve(false))
    })
    if (up) break
    if (Date.now() > deadline) { await stop(); throw new Error(`nginx did not listen within 10 s: ${stderr}${errorLog()}`) }
    await sleep(50)
  }
  return { port: listenPort, child, stop, errorLog }
}
