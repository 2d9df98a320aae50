/**
 * Fastify 4.3's names for a content-type parser registry's state (getParser, existingParser,
 * customParsers, parserList, parserRegExpList, cache): views of the real registrations.
 */
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { ContentTypeParsers } from '../../src/lifecycle/content-type-parsers'

const options = { bodyLimit: 1024, onProtoPoisoning: 'error', onConstructorPoisoning: 'error' } as const
const a = (): void => {}
const b = (): void => {}

describe('Fastify-named views of the parser registry', () => {
  it('getParser returns an exact registration without caching, other headers through the cached lookup', () => {
    const p = new ContentTypeParsers(options)
    p.add('text/html', {}, a)
    assert.equal(p.getParser('text/html')?.fn, a)
    assert.equal(p.cache.size, 0)
    assert.equal(p.getParser('text/html; charset=utf-8')?.fn, a)
    assert.equal(p.cache.size, 1)
  })

  it('getParser keeps the strict media-type matching (no substring matches)', () => {
    const p = new ContentTypeParsers(options)
    assert.equal(p.getParser('application/jsonx'), undefined)
    assert.equal(p.getParser('application/json garbage'), undefined)
  })

  it('existingParser: defaults count once replaced, the catch-all never', () => {
    const p = new ContentTypeParsers(options)
    assert.equal(p.existingParser('application/json'), false)
    p.add('application/json', {}, a)
    assert.equal(p.existingParser('application/json'), true)
    p.add('*', {}, b)
    assert.equal(p.existingParser('*'), false)
    p.add(/^image\//, {}, b)
    assert.equal(p.existingParser(/^image\//), true)
    assert.equal(p.existingParser('image/png'), false)
  })

  it('customParsers, parserList and parserRegExpList list the registrations', () => {
    const p = new ContentTypeParsers(options)
    assert.deepEqual(Object.keys(p.customParsers).sort(), ['application/json', 'text/plain'])
    p.add('*', {}, a)
    p.add(/^text\//, {}, b)
    assert.equal(p.customParsers[''].fn, a)
    assert.equal(p.customParsers[String(/^text\//)].fn, b)
    assert.deepEqual(p.parserList, ['application/json', 'text/plain'])
    assert.deepEqual(p.parserRegExpList, [/^text\//])
    p.removeAll()
    assert.deepEqual([Object.keys(p.customParsers).length, p.parserList.length, p.parserRegExpList.length, p.cache.size], [0, 0, 0, 0])
  })
})
