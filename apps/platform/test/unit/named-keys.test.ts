import { describe, expect, it } from 'vitest'
import { looksLikeNamedKey, newNamedKey } from '../../src/keys/named-keys.js'

describe('publishable and secret key format', () => {
  it('recognises every key it makes, whatever characters its random part and checksum hold', () => {
    // base64url has '_' and '-': a checksum or random part with '_' in it must still be read right.
    for (let i = 0; i < 2000; i++) {
      expect(looksLikeNamedKey(newNamedKey('publishable'))).toBe('publishable')
      expect(looksLikeNamedKey(newNamedKey('secret'))).toBe('secret')
    }
  })

  it('refuses a mistyped, cut or lengthened key, and other texts', () => {
    const key = newNamedKey('secret')
    const flipped = `${key.slice(0, 12)}${key[12] === 'A' ? 'B' : 'A'}${key.slice(13)}`
    for (const text of [flipped, key.slice(0, -1), `${key}x`, key.replace('sb_secret_', 'sb_publishable_'), 'sb_secret_', '', 'eyJhbGciOiJIUzI1NiJ9.e30.x']) {
      expect(looksLikeNamedKey(text), text).toBeNull()
    }
  })
})
