import { timingSafeEqual } from 'node:crypto'
import type { SecretBox } from './secret-box.js'

/**
 * Short-lived links to files the platform serves (backup downloads): the browser opens them
 * without a session, so the link itself carries the proof: '<subject>.<expiry>.<mac>'.
 */
export function signLink(box: SecretBox, subject: string, ttlSeconds: number): string {
  const expires = Math.floor(Date.now() / 1000) + ttlSeconds
  return `${subject}.${expires}.${box.mac(`${subject}.${expires}`)}`
}

/** The subject of a valid, unexpired link, or null. */
export function verifyLink(box: SecretBox, token: string): string | null {
  const [subject, expires, mac] = token.split('.')
  if (!subject || !expires || !mac) return null
  const expected = Buffer.from(box.mac(`${subject}.${expires}`))
  const given = Buffer.from(mac)
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null
  return Number(expires) >= Date.now() / 1000 ? subject : null
}
