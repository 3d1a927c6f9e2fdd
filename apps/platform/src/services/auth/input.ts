import type { ProjectAuthSettings } from '@stratum/contracts'
import { z } from 'zod'
import { AuthError, validationFailed } from './errors.js'
import { MAX_PASSWORD_BYTES } from './passwords.js'

const EMAIL = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/

/** An email as GoTrue keeps it: trimmed and lower-cased, 255 characters at most. */
export function normalEmail(value: unknown): string {
  if (typeof value !== 'string') throw validationFailed('Unable to validate email address: invalid format')
  const email = value.trim().toLowerCase()
  if (email.length > 255 || !EMAIL.test(email)) throw validationFailed('Unable to validate email address: invalid format')
  return email
}

/** A phone number in E.164 digits, stored without its `+` as GoTrue stores it. */
export function normalPhone(value: unknown): string {
  if (typeof value !== 'string') throw validationFailed('Invalid phone number format (E.164 required)')
  const phone = value.replace(/[\s()-]/g, '').replace(/^\+/, '')
  if (!/^[1-9]\d{7,14}$/.test(phone)) throw validationFailed('Invalid phone number format (E.164 required)')
  return phone
}

/** A new password: the project's minimum length, bcrypt's 72-byte maximum. */
export function checkedPassword(value: unknown, settings: ProjectAuthSettings): string {
  if (typeof value !== 'string' || value === '') throw validationFailed('Password is required')
  if ([...value].length < settings.password_min_length) {
    throw new AuthError(422, 'weak_password', `Password should be at least ${settings.password_min_length} characters.`, {
      weak_password: { reasons: ['length'] },
    })
  }
  if (Buffer.byteLength(value) > MAX_PASSWORD_BYTES) throw validationFailed(`Password cannot be longer than ${MAX_PASSWORD_BYTES} characters`)
  return value
}

/** User or app metadata: a JSON object of modest size. */
export const Metadata = z
  .record(z.string(), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 16_384, 'metadata is larger than 16 KB')

/** Merges a metadata change as GoTrue does: keys set to null are removed. */
export function mergedMetadata(current: Record<string, unknown>, change: Record<string, unknown>): Record<string, unknown> {
  const next = { ...current, ...change }
  for (const [key, value] of Object.entries(change)) if (value === null) delete next[key]
  return next
}

/** The user id in an admin path; anything else is a 404 as for a missing user. */
export function pathUserId(path: string): string | null {
  const match = /^\/admin\/users\/([0-9a-f-]{36})$/i.exec(path)
  return match ? match[1]!.toLowerCase() : null
}
