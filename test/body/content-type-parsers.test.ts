import { test } from 'node:test'
import assert from 'node:assert/strict'
import { ContentTypeParsers, getDefaultJsonParser, defaultTextParser } from '../../src/lifecycle/content-type-parsers'
import { errorCodes } from '../../src/base/errors'

const OPTS = { bodyLimit: 1024, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' } as const
const make = (): ContentTypeParsers => new ContentTypeParsers({ ...OPTS })

const first = (_req: unknown, _p: unknown, _done: unknown): void => {}
const second = (_req: unknown, _p: unknown, _done: unknown): void => {}
const third = (_req: unknown, _p: unknown, _done: unknown): void => {}

function fnFor (r: ContentTypeParsers, header: string | undefined): unknown {
  return r.lookup(header)?.fn
}

test('defaults: application/json and text/plain are installed as parseAs string parsers', () => {
  const r = make()
  assert.equal(r.has('application/json'), true)
  assert.equal(r.has('text/plain'), true)
  assert.equal(r.has('application/jsoff'), false)
  assert.equal(r.has('*'), false)
  const json = r.lookup('application/json')
  assert.ok(json)
  assert.equal(json.fn, r.defaultJsonParser)
  assert.equal(json.parseAs, 'string')
  assert.equal(json.asString, true)
  assert.equal(json.bodyLimit, 1024)
  assert.equal(r.lookup('text/plain')?.fn, defaultTextParser)
  assert.equal(r.defaultTextParser, defaultTextParser)
})

test('JSON lookup accepts parameters and any case of the essence', () => {
  const r = make()
  for (const h of ['application/json', 'application/json; charset=utf-8', 'Application/JSON', 'APPLICATION/JSON;CHARSET=UTF-8', ' application/json ']) {
    assert.equal(fnFor(r, h), r.defaultJsonParser, h)
  }
})

test('CVE-2022-41919: lookalike and smuggled content types do not reach the JSON parser', () => {
  const r = make()
  for (const h of ['application/jsonx', 'application/json garbage', 'application/json charset=utf-8', 'constructor', '__proto__', 'text/application/json', 'application/json,text/html', 'xapplication/json']) {
    assert.equal(r.lookup(h), undefined, h)
  }
  // smuggled inside a parameter: text/plain is what it is
  assert.equal(fnFor(r, 'text/plain; x="application/json"'), defaultTextParser)
  assert.equal(r.lookup('image/png; x="application/json"'), undefined)
})

test('add validates its arguments as Fastify 4.3 does', () => {
  const r = make()
  assert.throws(() => r.add({} as unknown as string, {}, first), { code: 'FST_ERR_CTP_INVALID_TYPE' })
  assert.throws(() => r.add(1 as unknown as string, {}, first), errorCodes.FST_ERR_CTP_INVALID_TYPE)
  assert.throws(() => r.add('', {}, first), { code: 'FST_ERR_CTP_EMPTY_TYPE' })
  assert.throws(() => r.add('  ', {}, first), { code: 'FST_ERR_CTP_EMPTY_TYPE' })
  assert.throws(() => r.add('x/y', {}, 'nope' as unknown as typeof first), { code: 'FST_ERR_CTP_INVALID_HANDLER' })
  assert.throws(() => r.add('x/y', { parseAs: 'fireworks' as 'string' }, first), {
    code: 'FST_ERR_CTP_INVALID_PARSE_TYPE',
    message: "The body parser can only parse your data as 'string' or 'buffer', you asked 'fireworks' which is not supported."
  })
  assert.equal(r.has('x/y'), false)
  r.add('test', {}, first)
  r.add(/test/, {}, first)
  assert.equal(r.has('test'), true)
  assert.equal(r.has(/test/), true)
})

test('duplicates are refused; each default may be replaced once', () => {
  const r = make()
  r.add('application/json', {}, first)
  r.add('text/plain', {}, first)
  assert.throws(() => r.add('application/json', {}, second), { code: 'FST_ERR_CTP_ALREADY_PRESENT', message: "Content type parser 'application/json' already present." })
  assert.throws(() => r.add('text/plain', {}, second), { code: 'FST_ERR_CTP_ALREADY_PRESENT' })
  r.add('x/y', {}, first)
  assert.throws(() => r.add('X/Y', {}, second), { code: 'FST_ERR_CTP_ALREADY_PRESENT' }, 'same media type, other case')
  r.add(/^a\//, {}, first)
  assert.throws(() => r.add(/^a\//, {}, second), { code: 'FST_ERR_CTP_ALREADY_PRESENT' })
  assert.equal(fnFor(r, 'application/json'), first)
  // overriding the default keeps one entry, and removing it leaves none
  r.remove('application/json')
  assert.equal(r.lookup('application/json'), undefined)
})

test('catch-all "*" may be replaced and matches everything nothing else matches', () => {
  const r = make()
  r.add('*', {}, first)
  r.add('*', {}, third)
  assert.equal(r.has('*'), true)
  r.add(/^text\/.*/, {}, second)
  assert.equal(fnFor(r, 'image/gif'), third)
  assert.equal(fnFor(r, 'text/html'), second)
  assert.equal(fnFor(r, 'text'), third, 'invalid type goes to the catch-all')
  assert.equal(fnFor(r, undefined), third, 'missing type goes to the catch-all')
  assert.equal(fnFor(r, 'application/json'), r.defaultJsonParser, 'specific parsers win over the catch-all')
  r.remove('*')
  assert.equal(r.lookup('image/gif'), undefined)
})

test('string parsers win over RegExp ones; most recently added first', () => {
  const r = make()
  r.add(/^image\/.*/, {}, first)
  r.add('image/gif', {}, second)
  assert.equal(fnFor(r, 'image/gif'), second)
  assert.equal(fnFor(r, 'image/png'), first)
  r.add(/^image\/p/, {}, third)
  assert.equal(fnFor(r, 'image/png'), third, 'newer RegExp first')
  assert.equal(fnFor(r, 'image/jpeg'), first)
})

test('RegExp parsers are tested against the essence, never the parameters', () => {
  const r = make()
  r.add(/json/, {}, third)
  r.add(/^application\/.+\+xml/, {}, first)
  r.add(/.*\+json$/, {}, second)
  assert.equal(fnFor(r, 'application/t+xml'), first)
  assert.equal(fnFor(r, 'application/vnd.test+json'), second)
  assert.equal(fnFor(r, 'application/vnd.test+json; charset=utf-8'), second, '$ anchors at the essence end')
  assert.equal(fnFor(r, 'APPLICATION/VND.TEST+JSON'), second, 'essence lowercased')
  assert.equal(fnFor(r, 'text/json'), third)
  assert.equal(r.lookup('text/html; x=json'), undefined, 'a parameter value cannot satisfy a pattern')
  assert.equal(r.lookup('weird-content-type+json'), undefined, 'invalid media type: no specific parser')
})

test('RegExp patterns written with uppercase still match the type as written', () => {
  const r = make()
  r.add(/.*\+myExtension$/, {}, first)
  assert.equal(fnFor(r, 'application/+myExtension'), first)
  assert.equal(r.lookup('application/+myextension'), undefined)
})

test('global and sticky RegExps match on every lookup', () => {
  const r = make()
  r.add(/^image\//g, {}, first)
  for (let i = 0; i < 5; i++) {
    assert.equal(fnFor(r, `image/x${i}`), first) // distinct headers: no cache hit
  }
})

test('string registrations with parameters require those parameters', () => {
  const r = make()
  r.add('application/vnd.x', {}, first)
  r.add('application/vnd.x; version=2', {}, second)
  assert.equal(fnFor(r, 'application/vnd.x'), first)
  assert.equal(fnFor(r, 'application/vnd.x; version=1'), first)
  assert.equal(fnFor(r, 'application/vnd.x; version=2'), second)
  assert.equal(fnFor(r, 'application/vnd.x;charset=utf-8;VERSION="2"'), second)
  assert.equal(fnFor(r, 'application/vnd.x; version=20'), first)
  // the more specific registration wins even if it is older
  r.add('application/vnd.y; version=2', {}, second)
  r.add('application/vnd.y', {}, first)
  assert.equal(fnFor(r, 'application/vnd.y; version=2'), second)
  // charset values compare case-insensitively
  r.add('text/x; charset=utf-8', {}, third)
  assert.equal(fnFor(r, 'text/x; charset=UTF-8'), third)
  assert.equal(r.lookup('text/x'), undefined)
})

test('a registration that is not a media type matches only the same text', () => {
  const r = make()
  r.add('text', {}, first)
  assert.equal(fnFor(r, 'text'), first)
  assert.equal(fnFor(r, ' TEXT '), first)
  assert.equal(r.lookup('text/plain')?.fn, defaultTextParser)
  assert.equal(r.lookup('texts'), undefined)
})

test('add accepts arrays; remove accepts arrays; unknown removals are ignored', () => {
  const r = make()
  r.add(['application/xml', /^image\/.*/, 'text/html'], { parseAs: 'buffer' }, first)
  assert.equal(r.has('application/xml'), true)
  assert.equal(r.has(/^image\/.*/), true)
  assert.equal(r.lookup('image/png')?.parseAs, 'buffer')
  r.remove([/^image\/.*/, 'application/json'])
  assert.equal(r.has(/^image\/.*/), false)
  assert.equal(r.has('application/json'), false)
  assert.equal(r.lookup('image/png'), undefined)
  assert.equal(r.lookup('application/json'), undefined)
  assert.doesNotThrow(() => r.remove('image/png'))
  assert.throws(() => r.remove(12 as unknown as string), { code: 'FST_ERR_CTP_INVALID_TYPE' })
  assert.equal(r.has('text/html'), true)
  assert.equal(r.has(12 as unknown as string), false)
})

test('has does not run a lookup', () => {
  const r = make()
  r.add(/^image\/.*/, {}, first)
  r.add('image/gif', {}, first)
  assert.equal(r.has('image/gif'), true)
  assert.equal(r.has('Image/GIF'), true)
  assert.equal(r.has('image/png'), false)
  assert.equal(r.has(/^image\/.+\+xml/), false)
})

test('removeAll removes defaults and catch-all; defaults can then be re-added', () => {
  const r = make()
  r.add('*', {}, first)
  r.add('application/xml', {}, first)
  r.lookup('application/xml')
  r.removeAll()
  for (const h of ['application/json', 'text/plain', 'application/xml', 'x/y', undefined]) {
    assert.equal(r.lookup(h), undefined, String(h))
  }
  r.add('application/json', {}, second)
  assert.equal(fnFor(r, 'application/json'), second)
})

test('bodyLimit: per-parser value kept, otherwise the registry default', () => {
  const r = make()
  r.add('a/b', { bodyLimit: 5 }, first)
  r.add('a/c', {}, first)
  assert.equal(r.lookup('a/b')?.bodyLimit, 5)
  assert.equal(r.lookup('a/c')?.bodyLimit, 1024)
  assert.equal(r.bodyLimit, 1024)
})

test('child() is isolated from parent and siblings in both directions', () => {
  const root = make()
  root.add('a/root', {}, first)
  const a = root.child()
  const b = root.child()
  a.add('a/child', {}, second)
  a.remove('application/json')
  b.removeAll()
  root.add('a/later', {}, third)

  assert.equal(fnFor(a, 'a/root'), first)
  assert.equal(fnFor(a, 'a/child'), second)
  assert.equal(a.lookup('application/json'), undefined)
  assert.equal(a.lookup('a/later'), undefined, 'parent changes after child() do not leak in')

  assert.equal(root.lookup('a/child'), undefined)
  assert.equal(fnFor(root, 'application/json'), root.defaultJsonParser)
  assert.equal(fnFor(root, 'a/later'), third)

  assert.equal(b.lookup('a/root'), undefined)
  assert.equal(b.lookup('text/plain'), undefined)
  assert.equal(fnFor(a, 'text/plain'), defaultTextParser)

  const grandchild = a.child()
  assert.equal(fnFor(grandchild, 'a/child'), second)
  assert.equal(grandchild.defaultJsonParser, root.defaultJsonParser)
  assert.equal(grandchild.bodyLimit, root.bodyLimit)
})

test('child inherits RegExp and catch-all parsers, and may override the defaults', () => {
  const root = make()
  root.add(/^image\//, {}, first)
  root.add('*', {}, third)
  const c = root.child()
  assert.equal(fnFor(c, 'image/png'), first)
  assert.equal(fnFor(c, 'what/ever'), third)
  c.add('application/json', {}, second)
  assert.equal(fnFor(c, 'application/json'), second)
  assert.equal(fnFor(root, 'application/json'), root.defaultJsonParser)
})

test('lookup cache is invalidated by add and remove', () => {
  const r = make()
  assert.equal(r.lookup('x/y'), undefined)
  r.add('x/y', {}, first)
  assert.equal(fnFor(r, 'x/y'), first)
  assert.equal(fnFor(r, 'x/y'), first)
  r.remove('x/y')
  assert.equal(r.lookup('x/y'), undefined)
})

test('lookup cache stays bounded under many distinct headers', () => {
  const r = make()
  r.add(/^x\//, {}, first)
  for (let i = 0; i < 5000; i++) r.lookup(`x/${i}`)
  for (let i = 0; i < 5000; i++) r.lookup(`nope/${i}`)
  const cache = (r as unknown as { cache: Map<string, unknown> }).cache
  assert.ok(cache.size <= 100, `cache size ${cache.size}`)
  r.lookup('x/' + 'a'.repeat(10_000))
  assert.ok(cache.size <= 100)
  assert.equal(fnFor(r, 'x/1'), first)
})

test('getDefaultJsonParser honours the poisoning policies', async () => {
  const run = (p: ReturnType<typeof getDefaultJsonParser>, body: string): Promise<{ err: any, value: any }> =>
    new Promise(resolve => p({}, body, (err, value) => resolve({ err, value })))

  const strict = getDefaultJsonParser('error', 'error')
  let r = await run(strict, '{"__proto__":{"x":1}}')
  assert.equal(r.err instanceof SyntaxError, true)
  assert.equal(r.err.statusCode, 400)
  r = await run(strict, '{"constructor":{"prototype":{"x":1}}}')
  assert.equal(r.err.statusCode, 400)

  const remove = getDefaultJsonParser('remove', 'remove')
  r = await run(remove, '{"a":1,"__proto__":{"x":1}}')
  assert.equal(r.err, null)
  assert.equal(Object.prototype.hasOwnProperty.call(r.value, '__proto__'), false)
  assert.equal(r.value.a, 1)

  const ignore = getDefaultJsonParser('ignore', 'ignore')
  r = await run(ignore, '{"__proto__":{"x":1}}')
  assert.equal(r.err, null)
  assert.equal(({} as any).x, undefined, 'no global pollution')

  r = await run(strict, '')
  assert.equal(r.err.code, 'FST_ERR_CTP_EMPTY_JSON_BODY')
  assert.equal(r.err.statusCode, 400)

  r = await run(strict, '{"hello":')
  assert.equal(r.err instanceof SyntaxError, true)
  assert.equal(r.err.statusCode, 400)

  r = await run(strict, '\uFEFF{"bom":true}')
  assert.deepEqual(r.value, { bom: true })
})

test('the registry default JSON parser uses the registry policies', async () => {
  const r = new ContentTypeParsers({ bodyLimit: 10, onProtoPoisoning: 'remove', onConstructorPoisoning: 'ignore' })
  const value = await new Promise<any>((resolve, reject) =>
    r.defaultJsonParser({}, '{"a":1,"__proto__":{"x":1}}', (err, v) => err ? reject(err) : resolve(v)))
  assert.deepEqual(value, { a: 1 })
})
