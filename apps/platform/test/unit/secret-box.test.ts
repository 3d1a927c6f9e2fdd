import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SecretBox } from '../../src/control/secret-box.js'

describe('SecretBox', () => {
  it('round-trips secrets with a key kept in the data directory, and refuses tampering', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'secret-box-'))
    const box = SecretBox.openOrCreate(dir)
    const sealed = box.seal('hunter2-password')
    expect(sealed).toMatch(/^v1:/)
    expect(sealed).not.toContain('hunter2')
    expect(SecretBox.openOrCreate(dir).open(sealed)).toBe('hunter2-password')
    expect(fs.statSync(path.join(dir, 'secret.key')).mode & 0o777).toBe(0o600)
    const tampered = sealed.slice(0, -4) + (sealed.endsWith('AAAA') ? 'BBBB' : 'AAAA')
    expect(() => box.open(tampered)).toThrow()
    fs.rmSync(dir, { recursive: true })
  })
})
