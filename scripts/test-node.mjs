// Runs the test suite under another Node.js line: `npm run test:node -- 24 [path-filter ...]`.
// The binary is installed into a cache outside the repository (scripts/node-line.mjs); the build in
// dist/ is plain JavaScript, so `npm run build` under this machine's Node is enough beforehand.
import { spawnSync } from 'node:child_process'
import { dirname } from 'node:path'
import { nodeLineBinary } from './node-line.mjs'

const [major, ...filters] = process.argv.slice(2)
if (major === undefined) { console.error('usage: npm run test:node -- <major> [path-filter ...]'); process.exit(2) }
const node = nodeLineBinary(major)
const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()
console.log(`# test suite under Node ${version} (${node})`)
const env = { ...process.env, PATH: `${dirname(node)}:${process.env.PATH ?? ''}` }
const runner = new URL('./run-tests.mjs', import.meta.url).pathname
const result = spawnSync(node, [runner, ...filters], { stdio: 'inherit', env })
process.exit(result.status ?? 1)
