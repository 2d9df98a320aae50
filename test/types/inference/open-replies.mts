// An open response schema (no `additionalProperties: false`) accepts a value of an `interface`
// type: the serializer writes the declared properties and drops the rest, so the reply type has
// no index signature for an interface to lack. A closed schema stays as strict as before, and the
// declared properties are checked either way. Compiled, not run.
import trellis from 'trellis'

const app = trellis()

interface User { id: number; name: string; passwordHash: string }
interface IdOnly { id: number }
interface WrongId { id: string; name: string }
declare function loadUser (): Promise<User>
declare function loadPartial (): Promise<IdOnly>
declare function loadWrong (): Promise<WrongId>

const open = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } }, required: ['id', 'name'] } as const
const allOptional = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' } } } as const
const closed = { ...open, additionalProperties: false } as const

// ---- open: an interface value is returned, sent per code, or sent before any code
app.get('/open', { schema: { response: { 200: open } } }, async () => loadUser())
app.get('/open-block', { schema: { response: { 200: open, 404: open } } }, async (request, reply) => {
  const user = await loadUser()
  if (request.id === 'a') return reply.code(404).send(user)
  if (request.id === 'b') { reply.send(user); return }
  return user
})
// an object literal with undeclared properties is fine too (they are dropped), even sent directly
app.get('/open-literal', { schema: { response: { 200: open } } }, async (_request, reply) => {
  reply.code(200).send({ id: 1, name: 'a', internal: true })
})
// all properties optional: still not a "weak type" that rejects a value sharing none of them
app.get('/open-optional', { schema: { response: { 200: allOptional } } }, async () => ({ other: 1 }))

// ---- open: the declared properties are still checked
// @ts-expect-error an interface whose id is a string
app.get('/open-wrong', { schema: { response: { 200: open } } }, async () => loadWrong())
// @ts-expect-error an interface that lacks a required property (name)
app.get('/open-missing', { schema: { response: { 200: open } } }, async () => loadPartial())
app.get('/open-send-wrong', { schema: { response: { 200: open } } }, async (_request, reply) => {
  const wrong = await loadWrong()
  // @ts-expect-error reply.code(200).send checks the declared properties
  reply.code(200).send(wrong)
})

// ---- closed: as strict as before
app.get('/closed', { schema: { response: { 200: closed } } }, async (_request, reply) => {
  // @ts-expect-error an undeclared property in an object literal sent to a closed schema
  reply.code(200).send({ id: 1, name: 'a', internal: true })
  reply.code(200).send({ id: 1, name: 'a' })
})
// @ts-expect-error a closed schema with all properties optional rejects a value sharing none of them
app.get('/closed-optional', { schema: { response: { 200: { ...allOptional, additionalProperties: false } } } }, async () => ({ other: 1 }))
// @ts-expect-error closed: an interface lacking a required property
app.get('/closed-missing', { schema: { response: { 200: closed } } }, async () => loadPartial())
