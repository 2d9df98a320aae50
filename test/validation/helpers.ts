import type { RequestParts } from '../../src/schema/validation/index'

/** A request with the given parts; missing parts as the core gives them (empty objects, no body). */
export function parts (p: Partial<RequestParts> = {}): RequestParts {
  return { body: undefined, query: {}, params: {}, headers: {}, ...p }
}
