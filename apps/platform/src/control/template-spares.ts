// Spare copies of the template clusters (instance-templates.ts), and what both need: the copy and the ownership check.
import { execFile } from 'node:child_process'
import { randomInt } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import type { RunAs } from './os-user.js'

/**
 * Templates of an older recipe, and builds interrupted by a crash, once no platform can still be copying them:
 * platforms sharing the directory (test runs) may run older code for a while (a test run lasts well under an hour).
 */
export const STALE_AFTER_MS = 60 * 60 * 1000

export interface Template {
  /** `<dir>/<major>-<recipe>`'s name: spare copies are filed under it. */
  name: string
  dataDir: string
  adminPassword: string
}

/** A reflink where the filesystem has them (btrfs, xfs): the copy then costs no data blocks. */
export async function copyCluster(from: string, to: string): Promise<void> {
  await promisify(execFile)('cp', ['-a', '--reflink=auto', from, to])
}

/**
 * Copies of each major's current template made ahead of need, so that a creation renames one into place instead of
 * copying a cluster's ~1,000 files then (measured on this machine's disk: 150 ms to a second, most of a creation's
 * time, a file creation costing up to 0.7 ms). After each creation takes one, another is copied in the background.
 *
 * They live in `<templates>/.spares` (0700, the platform's own user): nobody else can reach or change them before
 * they become a project's cluster. Taking one is a rename, atomic: two platforms sharing the directory (tests) never
 * take the same copy, and one that loses the race copies the template. A copy is made aside (`.copying-*`) and
 * renamed when whole; copies of an older recipe are claimed by a rename before they are removed, so no platform
 * still running older code can take one half deleted.
 */
export class SpareCopies {
  private readonly copying = new Map<string, Promise<void>>()
  /** Off after a rename across filesystems (a template directory elsewhere): copies made ahead would never be used. */
  private unusable = false

  constructor(
    private readonly dir: string,
    private readonly count: number,
  ) {}

  /**
   * Moves a spare copy of `template` to `to` (which must not exist); false when there is none. A copy holding a file
   * that is not the templates' OS user's is thrown away, as its template would be (`trusted`).
   */
  take(template: Template, to: string, owner: RunAs): boolean {
    if (this.count <= 0 || this.unusable) return false
    for (const name of this.names(template)) {
      try {
        fs.renameSync(path.join(this.dir, name), to)
        if (ownedByTemplateUser(to, owner)) return true
        fs.rmSync(to, { recursive: true, force: true })
        return false
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code === 'EXDEV') {
          this.unusable = true
          return false
        }
        if (code !== 'ENOENT') throw error
        // Taken by another platform meanwhile: the next one.
      }
    }
    return false
  }

  /** Copies the template in the background until `count` spares of it exist (one copy at a time per template). */
  refill(template: Template): void {
    if (this.count <= 0 || this.unusable || this.copying.has(template.name)) return
    const work = (async () => {
      this.prepareDir(template)
      while (this.names(template).length < this.count) {
        const partial = path.join(this.dir, `.copying-${template.name}-${randomInt(1e9)}`)
        try {
          await copyCluster(template.dataDir, partial)
          fs.renameSync(partial, path.join(this.dir, `${template.name}-${randomInt(1e9)}`))
        } finally {
          fs.rmSync(partial, { recursive: true, force: true })
        }
      }
    })()
    this.copying.set(template.name, work)
    // A failed copy only means the next creation copies the template itself.
    work.catch(() => {}).finally(() => this.copying.delete(template.name))
  }

  /** Waits for the copy of `template` under way, if any; true when there was one. */
  async copied(template: Template): Promise<boolean> {
    const copying = this.copying.get(template.name)
    if (!copying) return false
    await copying.catch(() => {})
    return true
  }

  async settle(): Promise<void> {
    await Promise.allSettled([...this.copying.values()])
  }

  /** Removes every spare of a template found untrusted: they were copied from what it held. */
  discard(templateName: string): void {
    for (const name of this.list().filter((entry) => entry.startsWith(`${templateName}-`))) this.remove(name)
  }

  private list(): string[] {
    try {
      return fs.readdirSync(this.dir)
    } catch {
      return []
    }
  }

  /** Claimed by a rename first: a platform taking the same copy meanwhile gets all of it or none. */
  private remove(name: string): void {
    const claimed = path.join(this.dir, `.removing-${randomInt(1e9)}`)
    try {
      fs.renameSync(path.join(this.dir, name), claimed)
    } catch {
      return // claimed by another platform
    }
    fs.rmSync(claimed, { recursive: true, force: true })
  }

  private names(template: Template): string[] {
    return this.list().filter((name) => name.startsWith(`${template.name}-`))
  }

  /** The directory, ours alone; copies of this major's older recipes and copies a crash interrupted, removed. */
  private prepareDir(template: Template): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 })
    if (fs.statSync(this.dir).uid !== process.getuid?.()) throw new Error(`${this.dir} is not the platform's own`)
    fs.chmodSync(this.dir, 0o700)
    const major = template.name.split('-')[0]
    for (const name of this.list()) {
      const olderRecipe = name.startsWith(`${major}-`) && !name.startsWith(`${template.name}-`)
      const interrupted = /^\.(copying|removing)-/.test(name) && Date.now() - fs.statSync(path.join(this.dir, name)).mtimeMs > STALE_AFTER_MS
      if (olderRecipe || interrupted) this.remove(name)
    }
  }
}

/** Every file under `dir` belongs to the templates' OS user (or, not running as root, to us). */
export function ownedByTemplateUser(dir: string, owner: RunAs): boolean {
  const expected = owner.switched ? owner.uid : process.getuid?.()
  const walk = (entry: string): boolean => {
    const stat = fs.lstatSync(entry)
    if (stat.uid !== expected) return false
    return !stat.isDirectory() || fs.readdirSync(entry).every((child) => walk(path.join(entry, child)))
  }
  return walk(dir)
}

