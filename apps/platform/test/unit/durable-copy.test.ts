import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyEntries } from '../../src/control/branching/durable-copy.js'

/**
 * The copy under branches, resets and PITR base backups (issue 32: large files now copied by the kernel and synced
 * one by one, small ones synced together): every byte, every mode, the tree's shape, pgsql_tmp left out.
 */
const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-durable-copy-'))
  made.push(dir)
  return dir
}

const digest = (file: string) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex')

describe('copyEntries', () => {
  it('copies a data directory: a file past the large-file size, small files, modes and nested directories', async () => {
    const source = tempDir()
    const target = tempDir()
    fs.mkdirSync(path.join(source, 'base', '5'), { recursive: true, mode: 0o700 })
    fs.mkdirSync(path.join(source, 'base', 'pgsql_tmp'))
    fs.writeFileSync(path.join(source, 'base', 'pgsql_tmp', 'spill'), 'temporary')
    // 17 MB of random bytes: over the size from which a file is synced on its own.
    fs.writeFileSync(path.join(source, 'base', '5', '16384'), crypto.randomBytes(17 * 1024 * 1024), { mode: 0o600 })
    for (let n = 0; n < 50; n++) fs.writeFileSync(path.join(source, 'base', '5', `${n}`), crypto.randomBytes(8192), { mode: 0o600 })
    fs.writeFileSync(path.join(source, 'PG_VERSION'), '17\n', { mode: 0o644 })

    expect(await copyEntries(source, target, ['base', 'PG_VERSION'], { reflink: false })).toBe('copy')

    for (const name of ['16384', ...Array.from({ length: 50 }, (_, n) => `${n}`)]) {
      const copied = path.join(target, 'base', '5', name)
      expect(digest(copied)).toBe(digest(path.join(source, 'base', '5', name)))
      expect(fs.statSync(copied).mode & 0o777).toBe(0o600)
    }
    expect(fs.readFileSync(path.join(target, 'PG_VERSION'), 'utf8')).toBe('17\n')
    expect(fs.statSync(path.join(target, 'base', '5')).mode & 0o777).toBe(0o700)
    expect(fs.existsSync(path.join(target, 'base', 'pgsql_tmp'))).toBe(false)
  })
})
