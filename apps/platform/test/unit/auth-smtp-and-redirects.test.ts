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
  it('counts per key within a window and opens a new window after it', () => {
    const limiter = new RateLimiter()
    expect([1, 2, 3].map(() => limiter.take('k', 2, 1_000, 0))).toEqual([true, true, false])
    expect(limiter.take('other', 2, 1_000, 0)).toBe(true)
    expect(limiter.take('k', 2, 1_000, 1_001)).toBe(true)
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
