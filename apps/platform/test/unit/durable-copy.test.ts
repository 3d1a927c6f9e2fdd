import crypto from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
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
  // libuv's copyFile copies the size a file had when it began and never returns once the file shrinks (it spun here on
  // a 300 MB file truncated mid-copy); Postgres truncates relation files while an online copy runs.
  it('finishes when a file shrinks while it is copied (TRUNCATE, DROP and VACUUM do that to relation files)', async () => {
    const source = tempDir()
    const target = tempDir()
    const relation = path.join(source, 'base', '5', '16390')
    fs.mkdirSync(path.dirname(relation), { recursive: true })
    const size = 256 * 1024 * 1024
    fs.writeFileSync(relation, Buffer.alloc(size, 7), { mode: 0o600 })
    const copying = copyEntries(source, target, ['base'], { reflink: false })
    const copied = path.join(target, 'base', '5', '16390')
    // Shrunk once the copy has written part of it: checked every turn of the event loop, as the copy goes on in
    // libuv's threads (a timer's 50 ms would often come after the copy ended).
    const written = () => fs.existsSync(copied) && fs.statSync(copied).size > 0
    for (let turns = 0; !written() && turns < 1_000_000; turns++) await new Promise((resolve) => setImmediate(resolve))
    fs.truncateSync(relation, 8192)
    await copying
    expect(fs.statSync(copied).size).toBeLessThan(size)
  }, 60_000)

  // A file swapped for a link after the walk (only someone who already runs code as the server's OS user could): the
  // copy, running as the platform, must not read through it. Both ways of copying are tried: cp (large) and here (small).
  it('refuses a link put in place of a file, large or small, never reading what it points to', async () => {
    const outside = tempDir()
    for (const size of [8192, 17 * 1024 * 1024]) {
      // A host file of that size: the walk reads its size through the link, so the large one goes to cp.
      const secret = path.join(outside, `host-secret-${size}`)
      fs.writeFileSync(secret, Buffer.alloc(size, "not the tenant's "))
      const source = tempDir()
      const target = tempDir()
      const relation = path.join(source, 'base', '16384')
      fs.mkdirSync(path.dirname(relation), { recursive: true })
      fs.symlinkSync(secret, relation)
      // The walk saw a regular file there (its lstat answers for what the link points to); the link is what the copy meets.
      const walked = vi.spyOn(fs, 'lstatSync').mockImplementation(((file: fs.PathLike) => fs.statSync(file)) as typeof fs.lstatSync)
      const copying = copyEntries(source, target, ['base'], { reflink: false })
      walked.mockRestore()
      await expect(copying).rejects.toThrow()
      const copied = path.join(target, 'base', '16384')
      expect(fs.existsSync(copied) && !fs.lstatSync(copied).isSymbolicLink() ? fs.readFileSync(copied, 'utf8') : '').not.toContain('tenant')
    }
  })
})

