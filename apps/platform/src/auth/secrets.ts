import { hash, randomBytes } from 'node:crypto'

/** Personal access tokens: the Management API's format, 'sbp_' + 40 hex characters. */
export function newAccessToken(): string {
  return 'sbp_' + randomBytes(20).toString('hex')
}

export function newSessionToken(): string {
  return randomBytes(32).toString('base64url')
}

/** Only hashes are stored: a leaked platform database yields no usable token. */
export function hashToken(token: string): string {
  // The one-shot hash: every API request hashes its credential, and a Hash object costs it twice as much (issue 32).
  return hash('sha256', token, 'hex')
}

/** 'sbp_1234…abcd': enough to recognise a token in a list, useless to an attacker. */
export function tokenAlias(token: string): string {
  return `${token.slice(0, 8)}…${token.slice(-4)}`
}
