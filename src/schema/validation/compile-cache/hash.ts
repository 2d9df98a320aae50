/** SHA-256 of a text, in hex: the keys of the schema cache and of `trellis build`. */
import * as crypto from 'node:crypto'

// crypto.hash (Node 20.12+) hashes a string in one call, a few times faster than a Hash object for
// short texts: a start with a build keys every route schema
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'hex') => string }).hash

export function sha256 (text: string): string {
  return oneShot !== undefined ? oneShot('sha256', text, 'hex') : crypto.createHash('sha256').update(text).digest('hex')
}
