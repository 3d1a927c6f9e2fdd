import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Logger } from 'pino'
import type { ObjectFiles } from './files.js'

/** A rendered image on disk. */
export interface CachedImage {
  file: string
  size: number
  extension: string
}

export interface TransformCacheLimits {
  /** Bytes of rendered images a project keeps; the least recently used go first beyond it. */
  maxProjectBytes: number
  /** Rendered images a project keeps. */
  maxProjectEntries: number
}

interface Entry {
  size: number
  extension: string
}

interface ProjectIndex {
  total: number
  /** `version/key` -> entry, least recently used first (a Map keeps insertion order; a use re-inserts). */
  entries: Map<string, Entry>
}

const KEY = /^[0-9a-f]{32}$/
const EXTENSION = /^[a-z]{3,4}$/

/**
 * Rendered images, so the same transformation of the same object version is encoded once:
 * `<project storage>/transforms/<version>/<key>.<ext>`, the key a hash of the options. A version's files go
 * when the version does (ObjectFiles.remove: the object was deleted or overwritten), and each project's
 * share is bounded, least recently used out first. The index of a project is read from its folder on first
 * use (a restart keeps the files; their order is then their modification time).
 */
export class TransformCache {
  private readonly projects = new Map<string, Promise<ProjectIndex>>()

  constructor(
    private readonly files: ObjectFiles,
    private readonly limits: TransformCacheLimits,
    private readonly log: Logger,
  ) {
    files.onRemove((ref, version) => this.forget(ref, version))
  }

  private dir(ref: string): string {
    return path.join(this.files.projectDir(ref), 'transforms')
  }

  private fileOf(ref: string, version: string, key: string, extension: string): string {
    // The version is checked by pathOf (a version id, never a path); key and extension are made here.
    this.files.pathOf(ref, version)
    return path.join(this.dir(ref), version, `${key}.${extension}`)
  }

  async get(ref: string, version: string, key: string): Promise<CachedImage | null> {
    const index = await this.index(ref)
    const id = `${version}/${key}`
    const entry = index.entries.get(id)
    if (!entry) return null
    const file = this.fileOf(ref, version, key, entry.extension)
    if (!fs.existsSync(file)) {
      this.drop(index, id)
      return null
    }
    index.entries.delete(id)
    index.entries.set(id, entry)
    return { file, size: entry.size, extension: entry.extension }
  }

  /** Keeps a rendered image (written aside and renamed: a reader never sees half of it), then trims the project's share. */
  async put(ref: string, version: string, key: string, extension: string, data: Buffer): Promise<void> {
    if (!KEY.test(key) || !EXTENSION.test(extension) || data.length > this.limits.maxProjectBytes) return
    const index = await this.index(ref)
    const target = this.fileOf(ref, version, key, extension)
    const tmpDir = path.join(this.files.projectDir(ref), 'tmp')
    await fs.promises.mkdir(tmpDir, { recursive: true, mode: 0o700 })
    const tmp = path.join(tmpDir, `transform-${randomUUID()}`)
    try {
      await fs.promises.writeFile(tmp, data, { mode: 0o600 })
      await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 })
      await fs.promises.rename(tmp, target)
    } catch (error) {
      await fs.promises.rm(tmp, { force: true })
      throw error
    }
    // The object may have gone while it was rendered: its version's folder is then removed again.
    if (!this.files.exists(ref, version)) {
      this.forget(ref, version)
      return
    }
    const id = `${version}/${key}`
    this.drop(index, id)
    index.entries.set(id, { size: data.length, extension })
    index.total += data.length
    this.trim(ref, index)
  }

  /** Removes every rendering of a version (the object was removed or replaced). */
  forget(ref: string, version: string): void {
    try {
      fs.rmSync(path.join(this.dir(ref), path.basename(version)), { recursive: true, force: true })
    } catch (error) {
      this.log.warn({ err: error, ref }, 'storage: the image renderings of a removed object were not removed')
    }
    const pending = this.projects.get(ref)
    if (!pending) return
    void pending.then((index) => {
      for (const id of [...index.entries.keys()]) if (id.startsWith(`${version}/`)) this.drop(index, id)
    })
  }

  private drop(index: ProjectIndex, id: string): void {
    const entry = index.entries.get(id)
    if (!entry) return
    index.entries.delete(id)
    index.total -= entry.size
  }

  private trim(ref: string, index: ProjectIndex): void {
    for (const [id, entry] of index.entries) {
      if (index.total <= this.limits.maxProjectBytes && index.entries.size <= this.limits.maxProjectEntries) break
      this.drop(index, id)
      const [version, name] = id.split('/') as [string, string]
      fs.rmSync(path.join(this.dir(ref), version, `${name}.${entry.extension}`), { force: true })
      // An empty version folder goes too (rmdir fails, harmlessly, on one that still holds renderings).
      try {
        fs.rmdirSync(path.join(this.dir(ref), version))
      } catch {
        // Not empty.
      }
    }
  }

  private index(ref: string): Promise<ProjectIndex> {
    let pending = this.projects.get(ref)
    if (!pending) {
      pending = this.load(ref)
      this.projects.set(ref, pending)
    }
    return pending
  }

  /** The files a project's folder holds (after a restart), oldest first; names that are not ours are left alone. */
  private async load(ref: string): Promise<ProjectIndex> {
    const index: ProjectIndex = { total: 0, entries: new Map() }
    const found: { id: string; entry: Entry; time: number }[] = []
    const versions = await fs.promises.readdir(this.dir(ref), { withFileTypes: true }).catch(() => [])
    for (const version of versions) {
      if (!version.isDirectory()) continue
      const names = await fs.promises.readdir(path.join(this.dir(ref), version.name)).catch(() => [] as string[])
      for (const name of names) {
        const [key, extension] = name.split('.')
        if (!key || !extension || !KEY.test(key) || !EXTENSION.test(extension)) continue
        const stats = await fs.promises.stat(path.join(this.dir(ref), version.name, name)).catch(() => null)
        if (stats?.isFile()) found.push({ id: `${version.name}/${key}`, entry: { size: stats.size, extension }, time: stats.mtimeMs })
      }
    }
    for (const { id, entry } of found.sort((a, b) => a.time - b.time)) {
      index.entries.set(id, entry)
      index.total += entry.size
    }
    this.trim(ref, index)
    return index
  }
}
