import { Secret, TOTP } from 'otpauth'
import QRCode from 'qrcode'

/** RFC 6238 as GoTrue uses it (pquerna/otp's defaults): SHA-1, six digits, 30-second steps, a 160-bit secret. */
const PARAMETERS = { algorithm: 'SHA1', digits: 6, period: 30 } as const

/** A new TOTP key for an authenticator app: its base32 secret and the otpauth:// URI the QR code carries. */
export function newTotpKey(issuer: string, account: string): { secret: string; uri: string } {
  const totp = new TOTP({ ...PARAMETERS, issuer, label: account, secret: new Secret({ size: 20 }) })
  return { secret: totp.secret.base32, uri: totp.toString() }
}

/** Whether the code is the secret's for this step or the one before or after (GoTrue's skew of one). */
export function totpCodeMatches(secret: string, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false
  return new TOTP({ ...PARAMETERS, secret: Secret.fromBase32(secret) }).validate({ token: code, window: 1 }) !== null
}

/**
 * The URI as a QR code in SVG, the raw markup GoTrue answers (auth-js makes it a `data:image/svg+xml;utf-8,` URI).
 * Error correction H as GoTrue's; colours by name, because a `#` would end such a URI where it stands.
 */
export async function qrCodeSvg(uri: string): Promise<string> {
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'H', margin: 4 })
  return svg.replaceAll('#ffffff', 'white').replaceAll('#000000', 'black').trim()
}
