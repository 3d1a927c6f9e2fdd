import { describe, expect, it } from 'vitest'
import { codePointOffsetToIndex, utf8OffsetMapper } from '../src/offsets.js'

describe('utf8OffsetMapper', () => {
  it('maps UTF-8 byte offsets to UTF-16 indices across 1-, 2-, 3- and 4-byte characters', () => {
    const text = 'aé€😀b'
    const toIndex = utf8OffsetMapper(text)
    // Bytes: a=0, é=1..2, €=3..5, 😀=6..9, b=10; UTF-16: a=0, é=1, €=2, 😀=3..4, b=5.
    expect([0, 1, 3, 6, 10, 11].map(toIndex)).toEqual([0, 1, 2, 3, 5, 6])
    expect(toIndex(-1)).toBe(0)
    expect(toIndex(99)).toBe(text.length)
  })

  it('is the identity for ASCII', () => {
    const toIndex = utf8OffsetMapper('select 1')
    for (let i = 0; i <= 8; i++) expect(toIndex(i)).toBe(i)
  })
})

describe('codePointOffsetToIndex', () => {
  it('counts astral characters as two UTF-16 units', () => {
    expect(codePointOffsetToIndex('😀😀x', 2)).toBe(4)
    expect(codePointOffsetToIndex('éx', 1)).toBe(1)
    expect(codePointOffsetToIndex('ab', 10)).toBe(2)
  })
})
