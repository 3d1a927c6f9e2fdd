/**
 * A password as the SCRAM-SHA-256 verifier Postgres stores (RFC 5802/7677; the format of pg_authid.rolpassword),
 * computed in the browser as psql's \password does: ALTER ROLE ... PASSWORD 'SCRAM-SHA-256$...' then carries no
 * plaintext, so neither the SQL preview, the request nor a server log line of a failed statement holds the password.
 */

const ITERATIONS = 4096

/**
 * Postgres runs SASLprep on a password before hashing it; for printable ASCII it changes nothing, so only those
 * passwords are hashed here. Others (and browsers without Web Crypto, which needs a secure context) are sent as they
 * are and Postgres hashes them itself: undefined.
 */
export function canHashInBrowser(password: string): boolean {
  return /^[\x20-\x7e]+$/.test(password) && typeof globalThis.crypto?.subtle !== 'undefined'
}

const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes))

async function hmac(key: Uint8Array, text: string): Promise<Uint8Array> {
  const hmacKey = await crypto.subtle.importKey('raw', key as BufferSource, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return new Uint8Array(await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(text)))
}

/** The salt is random unless given (tests check the result against RFC 7677's example). */
export async function scramVerifier(password: string, salt: Uint8Array = crypto.getRandomValues(new Uint8Array(16)), iterations = ITERATIONS): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits'])
  const salted = new Uint8Array(await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations }, key, 256))
  const storedKey = new Uint8Array(await crypto.subtle.digest('SHA-256', (await hmac(salted, 'Client Key')) as BufferSource))
  const serverKey = await hmac(salted, 'Server Key')
  return `SCRAM-SHA-256$${iterations}:${base64(salt)}$${base64(storedKey)}:${base64(serverKey)}`
}

/** What goes after PASSWORD: the verifier when the browser can compute it, else the password itself. */
export async function passwordForSql(password: string): Promise<string> {
  return password && canHashInBrowser(password) ? scramVerifier(password) : password
}
