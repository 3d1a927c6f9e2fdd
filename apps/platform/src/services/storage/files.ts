import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import type { Readable } from 'node:stream'
import { finished } from 'node:stream'
import { noSuchKey, tooLarge } from './errors.js'

const isVersion = (version: unknown): version is string => typeof version === 'string' && /^[0-9a-f-]{36}$/.test(version)

/** Bytes gathered before each write to disk: fewer, larger writes than the stream default (16 KB). */
const WRITE_BUFFER_BYTES = 1024 * 1024
/** Bytes read from disk at a time for a download (the stream default is 64 KB). */
const READ_BUFFER_BYTES = 1024 * 1024

/**
 * Pipes `body` into `file` and resolves the byte count once the file is closed. Bytes are counted as they
 * pass (no transform stage: it costs throughput). Past `maxBytes`, or when the client goes away, the file
 * is abandoned and `body` is unpiped but never destroyed: the request's answer then drains the rest
 * (gateway/proxy.ts), where a destroyed request would leave its kept-alive socket hanging.
 */
function copyInto(body: Readable, file: fs.WriteStream, maxBytes: number): Promise<number> {
  return new Promise((resolve, reject) => {
    let size = 0
    let settled = false
    const fail = (error: Error) => {
      if (settled) return
      settled = true
      body.off('data', count)
      body.unpipe(file)
      file.destroy()
      reject(error)
    }
    const count = (chunk: Buffer) => {
      size += chunk.length
      if (size > maxBytes) fail(tooLarge())
    }
    body.on('data', count)
    finished(body, (error) => error && fail(error))
    file.on('error', fail)
    file.on('close', () => {
      if (file.writableFinished && !settled) {
        settled = true
        resolve(size)
      } else fail(new Error('The object file was closed before it was written'))
    })
    body.pipe(file)
  })
}

/**
 * Where object bytes live: `<dataDir>/storage/<ref>/objects/<xx>/<version>`, one file per object
 * version, named by a random id and never by the object's name (names are user input: no path ever
 * comes from them). A move renames a row, not a file; an upsert writes a new version and removes the old
 * one after the database commits. Uploads stream into `tmp/` and are renamed into place, so a reader
 * never sees half a file.
 */
export class ObjectFiles {
  private readonly removeListeners: ((ref: string, version: string) => void)[] = []

  constructor(private readonly dataDir: string) {}

  projectDir(ref: string): string {
    return path.join(this.dataDir, 'storage', ref)
  }

  /**
   * The file of a version. Versions are read from rows a tenant can also write with SQL: one that is not
   * a version id names no file (NoSuchKey), and never a path.
   */
  pathOf(ref: string, version: string): string {
    if (!isVersion(version)) throw noSuchKey()
    return path.join(this.projectDir(ref), 'objects', version.slice(0, 2), version)
  }

  /**
   * Streams `body` to a new version file, refusing more than `maxBytes` (the upload is cut short and
   * nothing is kept). Returns the version id, the size and the ETag: the version id itself, which changes
   * with every write as an ETag must (an MD5 of the bytes, as S3 gives, would cost more CPU than the disk).
   */
  async write(ref: string, body: Readable, maxBytes: number): Promise<{ version: string; size: number; etag: string }> {
    const tmpDir = path.join(this.projectDir(ref), 'tmp')
    fs.mkdirSync(tmpDir, { recursive: true, mode: 0o700 })
    const version = randomUUID()
    const tmp = path.join(tmpDir, version)
    let size = 0
    try {
      size = await copyInto(body, fs.createWriteStream(tmp, { mode: 0o600, highWaterMark: WRITE_BUFFER_BYTES }), maxBytes)
      // On disk before the row commits: an upload that was answered must survive a power cut, as the row does.
      const handle = await fs.promises.open(tmp, 'r')
      try {
        await handle.sync()
      } finally {
        await handle.close()
      }
      const target = this.pathOf(ref, version)
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 })
      fs.renameSync(tmp, target)
      return { version, size, etag: `"${version}"` }
    } catch (error) {
      fs.rmSync(tmp, { force: true })
      throw error
    }
  }

  /** A copy under a new version id (object copy). */
  async copy(ref: string, from: string, to: string): Promise<void> {
    const target = this.pathOf(ref, to)
    fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 })
    await fs.promises.copyFile(this.pathOf(ref, from), target)
  }

  /** Called for each version removed: what was derived from its bytes (image renderings) goes with it. */
  onRemove(listener: (ref: string, version: string) => void): void {
    this.removeListeners.push(listener)
  }

  remove(ref: string, versions: (string | null)[]): void {
    for (const version of versions) {
      if (!version || !isVersion(version)) continue
      fs.rmSync(this.pathOf(ref, version), { force: true })
      for (const listener of this.removeListeners) listener(ref, version)
    }
  }

  exists(ref: string, version: string): boolean {
    return isVersion(version) && fs.existsSync(this.pathOf(ref, version))
  }

  /** The size of a version's file, or null when there is none. */
  sizeOf(ref: string, version: string): number | null {
    if (!isVersion(version)) return null
    const stats = fs.statSync(this.pathOf(ref, version), { throwIfNoEntry: false })
    return stats?.isFile() ? stats.size : null
  }

  /** Deletes every file of a project (project deletion). */
  removeProject(ref: string): void {
    fs.rmSync(this.projectDir(ref), { recursive: true, force: true })
  }

  /** The bytes of one version, whole or a range (`end` included, as in HTTP). */
  open(ref: string, version: string, range?: { start: number; end: number }): fs.ReadStream {
    return fs.createReadStream(this.pathOf(ref, version), { highWaterMark: READ_BUFFER_BYTES, ...(range ? { start: range.start, end: range.end } : {}) })
  }
}
