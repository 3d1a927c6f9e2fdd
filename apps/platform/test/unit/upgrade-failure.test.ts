import { describe, expect, it } from 'vitest'
import { upgradeFailureMessage } from '../../src/control/operations/upgrade-failure.js'

describe('a failed upgrade in plain words', () => {
  it('names the step that failed and keeps the recorded reason', () => {
    expect(upgradeFailureMessage('pre-upgrade-checks: Postgres 17 lacks the extensions plv8 used in database postgres')).toBe(
      'The pre-upgrade checks found a problem: Postgres 17 lacks the extensions plv8 used in database postgres.',
    )
    expect(upgradeFailureMessage('migrate-data: column "buffers_backend" does not exist.')).toBe(
      'Your data could not be copied to the new database server: column "buffers_backend" does not exist.',
    )
  })

  it('never shows the Management API code, and says when nothing was recorded', () => {
    expect(upgradeFailureMessage(null)).toBe('The upgrade failed without a recorded reason.')
    expect(upgradeFailureMessage('The operation was cancelled')).toBe('The operation was cancelled.')
    expect(upgradeFailureMessage('launch-new-server: initdb failed')).not.toMatch(/detachchment|_failed/)
  })
})
