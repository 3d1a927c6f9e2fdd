import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'

/**
 * Encrypts secrets kept in the platform database (project database passwords) with a key that
 * lives only in the data directory: a dump of the platform database alone reveals nothing.
 * AES-256-GCM; stored form is 'v1:' + base64(iv | tag | ciphertext).
 */
/** Opened secrets kept in memory: the SQL routes open a project's password on every query. */
const MAX_OPENED = 1_000

export class SecretBox {
  private opened = new Map<string, string>()

  private constructor(private readonly key: Buffer) {}

  static openOrCreate(dataDir: string): SecretBox {
    const file = path.join(dataDir, 'secret.key')
    if (!fs.existsSync(file)) {
      fs.mkdirSync(dataDir, { recursive: true })
      // 'wx' fails if another process created it meanwhile: never overwrite a key.
      fs.writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' })
    }
    const key = Buffer.from(fs.readFileSync(file, 'utf8').trim(), 'base64')
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key`)
    return new SecretBox(key)
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12)
    const cipher = createCipheriv('aes-256-gcm', this.key, iv)
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return 'v1:' + Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64')
  }

  /** A MAC for short-lived signed URLs; domain-separated from the encryption use of the key. */
  mac(data: string): string {
    return createHmac('sha256', this.key).update('stratum-signed-url\0').update(data).digest('base64url')
  }

  open(sealed: string): string {
    const known = this.opened.get(sealed)
    if (known !== undefined) return known
    const plaintext = this.decrypt(sealed)
    if (this.opened.size >= MAX_OPENED) this.opened.clear()
    this.opened.set(sealed, plaintext)
    return plaintext
  }

  private decrypt(sealed: string): string {
    if (!sealed.startsWith('v1:')) throw new Error('Unknown secret format')
    const raw = Buffer.from(sealed.slice(3), 'base64')
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12))
    decipher.setAuthTag(raw.subarray(12, 28))
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8')
  }
}
