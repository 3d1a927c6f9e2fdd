import { describe, expect, it } from 'vitest'
import { parseTrustProxy } from '../../src/config.js'
import { decodeCursor, encodeCursor } from '../../src/content/cursor.js'
import { MAX_INPUT_DEPTH, unsafeInput } from '../../src/unsafe-input.js'
import { MemberQueryLimiter } from '../../src/sql-runner/member-limiter.js'

describe('unsafeInput', () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 1
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { a: value }
    return value
  }

  it('accepts ordinary input, and nesting up to the limit', () => {
    expect(unsafeInput({ query: 'select 1', parameters: [1, 'two', { three: [3] }], read_only: true }, 'request body')).toBeNull()
    expect(unsafeInput(nested(MAX_INPUT_DEPTH), 'request body')).toBeNull()
    expect(unsafeInput(undefined, 'request body')).toBeNull()
    expect(unsafeInput(Buffer.from([0, 0, 0]), 'request body')).toBeNull()
  })

  it('refuses NUL bytes in strings and keys, and nesting past the limit, without recursing', () => {
    expect(unsafeInput({ a: ['x', 'y\u0000'] }, 'request body')).toBe('The request body contains a NUL character (\\u0000), which is not accepted')
    expect(unsafeInput({ 'k\u0000': 1 }, 'query string')).toMatch(/^The query string contains a NUL character/)
    expect(unsafeInput(nested(MAX_INPUT_DEPTH + 1), 'request body')).toBe(`The request body is nested too deeply (more than ${MAX_INPUT_DEPTH} levels)`)
    expect(unsafeInput(JSON.parse('['.repeat(100_000) + ']'.repeat(100_000)), 'request body')).toMatch(/nested too deeply/)
  })
})

describe('decodeCursor', () => {
  const id = '3f2c1a9e-8b7d-4c6e-9f01-23456789abcd'

  it('reads back what encodeCursor wrote, for text and timestamp sorts', () => {
    expect(decodeCursor(encodeCursor({ v: 'Zebra snippet', id }), 'text')).toEqual({ v: 'Zebra snippet', id })
    for (const v of ['2026-11-21 10:11:12.123456+00', '2024-02-29 00:00:00+05:30', '1999-12-31 23:59:59-08']) {
      expect(decodeCursor(encodeCursor({ v, id }), 'timestamptz')).toEqual({ v, id })
    }
  })

  it('refuses anything else with a 400', () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
    for (const [text, sort] of [
      ['%%%', 'text'],
      [forged(null), 'text'],
      [forged('string'), 'text'],
      [forged({ v: 'x', id: 'not-a-uuid' }), 'text'],
      [forged({ v: 'x\u0000', id }), 'text'],
      [forged({ v: 'x', id }), 'timestamptz'],
      [forged({ v: '2023-02-29 00:00:00+00', id }), 'timestamptz'],
      [forged({ v: '2024-01-01 24:00:00+00', id }), 'timestamptz'],
      [forged({ v: '2024-01-01 00:00:00+16', id }), 'timestamptz'],
    ] as const) {
      expect(() => decodeCursor(text, sort), `${text} ${sort}`).toThrow('cursor is not valid: pass the cursor of a previous page')
    }
  })
})

describe('parseTrustProxy', () => {
  it('reads off, on and address lists, and refuses anything else at boot', () => {
    expect(parseTrustProxy(undefined)).toBe(false)
    expect(parseTrustProxy('')).toBe(false)
    expect(parseTrustProxy('false')).toBe(false)
    expect(parseTrustProxy('TRUE')).toBe(true)
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'loopback'])
    expect(() => parseTrustProxy('2')).toThrow(/STRATUM_TRUST_PROXY must be/)
    expect(() => parseTrustProxy('proxy.internal')).toThrow(/'proxy.internal' is none of these/)
    expect(() => parseTrustProxy('10.0.0.0/33')).toThrow(/STRATUM_TRUST_PROXY/)
  })
})

describe('MemberQueryLimiter', () => {
  it('counts per member and project, gives slots back once, and remembers whose session is whose', () => {
    const limiter = new MemberQueryLimiter(2)
    const first = limiter.tryAcquire('ann', 'ref-a')!
    const second = limiter.tryAcquire('ann', 'ref-a')!
    expect(limiter.tryAcquire('ann', 'ref-a')).toBeNull()
    // Others, and the same member elsewhere, are not affected.
    expect(limiter.tryAcquire('bob', 'ref-a')).not.toBeNull()
    expect(limiter.tryAcquire('ann', 'ref-b')).not.toBeNull()

    first.session(4242)
    expect(limiter.startedBy('ann', 'ref-a', 4242)).toBe(true)
    expect(limiter.startedBy('bob', 'ref-a', 4242)).toBe(false)
    expect(limiter.startedBy('ann', 'ref-b', 4242)).toBe(false)
    first.release()
    first.release() // a second release does not free another slot
    expect(limiter.startedBy('ann', 'ref-a', 4242)).toBe(false)
    expect(limiter.tryAcquire('ann', 'ref-a')).not.toBeNull()
    expect(limiter.tryAcquire('ann', 'ref-a')).toBeNull()
    second.release()
    expect(limiter.tryAcquire('ann', 'ref-a')).not.toBeNull()
  })
})
