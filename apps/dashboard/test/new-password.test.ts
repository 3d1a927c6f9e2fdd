import { describe, expect, it } from 'vitest'
import { newPasswordProblems } from '../src/components/ui/NewPasswordFields'

describe('a new account password and its confirmation', () => {
  it('follows the platform rule: 8 to 256 characters, and the same twice', () => {
    expect(newPasswordProblems('long enough', 'long enough')).toEqual({ password: undefined, confirm: undefined })
    expect(newPasswordProblems('short', 'short')).toEqual({ password: 'Password must be at least 8 characters', confirm: undefined })
    expect(newPasswordProblems('x'.repeat(257), 'x'.repeat(257)).password).toBe('Password must be at most 256 characters')
    expect(newPasswordProblems('long enough', 'long enougH')).toEqual({ password: undefined, confirm: 'The passwords do not match' })
  })
})
