/**
 * The docs page: Swagger UI from the local `swagger-ui-dist` package (no CDN). Files are read once,
 * when the plugin is registered with the page on, and served from an allowlist (no path from the
 * request ever reaches the file system).
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { isWorkerTarget, WorkerUnavailableError } from '../base/worker-target'

interface UiAsset { body: Buffer, type: string }

const FILES: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png'
}

export function loadUiAssets (): Map<string, UiAsset> {
  if (isWorkerTarget()) throw new WorkerUnavailableError('the docs page of trellis/openapi', 'it serves swagger-ui-dist\'s files from disk; register trellis/openapi with ui: false (the JSON and YAML documents work)')
  const dir = dirname(require.resolve('swagger-ui-dist/package.json'))
  const assets = new Map<string, UiAsset>()
  for (const [file, type] of Object.entries(FILES)) assets.set(file, { body: readFileSync(join(dir, file)), type })
  return assets
}

function escapeHtml (text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

export function docsPage (base: string, title: string): string {
  const b = escapeHtml(base)
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${b}/static/swagger-ui.css">
<link rel="icon" type="image/png" href="${b}/static/favicon-32x32.png" sizes="32x32">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${b}/static/swagger-ui-bundle.js"></script>
<script src="${b}/static/init.js"></script>
</body>
</html>
`
}

/** The page's only own script (a file, so the page needs no inline script under its CSP). */
export function initScript (base: string, uiConfig: Record<string, unknown>): string {
  const config = { deepLinking: true, ...uiConfig, url: `${base}/json`, dom_id: '#swagger-ui' }
  return `window.ui = SwaggerUIBundle(${JSON.stringify(config).replace(/</g, '\\u003c')})\n`
}

export const DOCS_CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'self'"
