import { describe, expect, it } from 'vitest'
import { DEFAULT_AUTH_SETTINGS } from '../../src/services/auth/config.js'
import { AuthError } from '../../src/services/auth/errors.js'
import { RateLimiter } from '../../src/services/auth/rate-limit.js'
import { allowedRedirect } from '../../src/services/auth/redirects.js'
import { sendBySmtp } from '../../src/services/auth/smtp.js'

const settings = { ...DEFAULT_AUTH_SETTINGS, site_url: 'https://app.example.com', uri_allow_list: 'https://*.preview.example.com/**,http://localhost:5173' }

describe('auth redirects', () => {
  it('allows the site URL origin and the allow list, and sends anything else to the site URL', () => {
    expect(allowedRedirect('https://app.example.com/welcome', settings)).toBe('https://app.example.com/welcome')
    expect(allowedRedirect('https://pr-1.preview.example.com/a/b', settings)).toBe('https://pr-1.preview.example.com/a/b')
    expect(allowedRedirect('http://localhost:5173/callback', settings)).toBe('http://localhost:5173/callback')
    for (const hostile of [
      'https://evil.example.net/',
      'https://app.example.com.evil.net/',
      'https://a.b.preview.example.com/x',
      'javascript:alert(1)',
      'http://localhost:5174/',
      'not a url',
      null,
    ]) {
      expect(allowedRedirect(hostile, settings), String(hostile)).toBe('https://app.example.com')
    }
  })
})

describe('auth rate limits', () => {
  it("counts in the project's database, and answers a key it saw over its limit from memory until its window ends", async () => {
    // The upsert's answer, as auth.stratum_rate_limits gives it: the hits of the key's window (capped at limit + 1).
    const hits = new Map<string, number>()
    const statements: string[] = []
    const databases = {
      query: async (_ref: string, text: string, values: unknown[] = []) => {
        statements.push(text)
        const key = String(values[0])
        const count = Math.min((hits.get(key) ?? 0) + 1, Number(values[2]) + 1)
        hits.set(key, count)
        return { rows: [{ hits: count, window_ends_at: new Date(Date.now() + 60_000) }] }
      },
    }
    const limiter = new RateLimiter(databases as never)
    const taken = []
    for (let i = 0; i < 3; i++) taken.push(await limiter.take('ref', 'k', 2, 60_000))
    expect(taken).toEqual([true, true, false])
    expect(await limiter.take('ref', 'other', 2, 60_000)).toBe(true)
    const before = statements.length
    expect(await limiter.take('ref', 'k', 2, 60_000)).toBe(false)
    expect(statements.length).toBe(before)
    // A project that raises its limit is asked again at once.
    expect(await limiter.take('ref', 'k', 10, 60_000)).toBe(true)
    expect(statements.length).toBe(before + 1)
  })
})

describe('auth SMTP', () => {
  it('refuses a project SMTP host on loopback or a private network unless the installation allows it', async () => {
    for (const host of ['127.0.0.1', '10.1.2.3', '192.168.1.1', '169.254.169.254', '::1']) {
      const attempt = sendBySmtp({ ...settings, smtp_host: host, smtp_port: '25' }, null, { to: 'a@example.com', subject: 's', html: 'h' }, false)
      const error = await attempt.then(() => null, (reason: unknown) => reason)
      expect(error, host).toBeInstanceOf(AuthError)
      expect((error as AuthError).message).toMatch(/private network/)
    }
  })
})
