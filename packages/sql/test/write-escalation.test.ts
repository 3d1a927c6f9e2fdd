import { describe, expect, it } from 'vitest'
import { needsWriteConnection } from '../src/index.js'

describe('needsWriteConnection', () => {
  it('is true for permission-denied and must-be-owner errors, by SQLSTATE or by message', () => {
    expect(needsWriteConnection({ code: '42501', message: 'whatever the locale says' })).toBe(true)
    expect(needsWriteConnection({ message: 'permission denied for table users' })).toBe(true)
    expect(needsWriteConnection({ message: 'must be owner of table users' })).toBe(true)
    expect(needsWriteConnection({ code: '25006', message: 'cannot execute INSERT in a read-only transaction' })).toBe(true)
  })

  it('is false for other errors', () => {
    expect(needsWriteConnection({ code: '42601', message: 'syntax error at or near "selec"' })).toBe(false)
    expect(needsWriteConnection({ code: '42P01', message: 'relation "nope" does not exist' })).toBe(false)
    expect(needsWriteConnection({ message: 'canceling statement due to statement timeout' })).toBe(false)
  })
})
