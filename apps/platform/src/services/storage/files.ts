import { createHash, randomUUID } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { Transform, type Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { tooLarge } from './errors.js'

/**
 * Where object bytes live: `<dataDir>/storage/<ref>/objects/<xx>/<version>`, one file per object
 * version, named by a random id and never by the object's name (names are user input: no path ever
 * comes from them). A move renames a row, not a file; an upsert writes a new version and removes the old
 * one after the database commits. Uploads stream into `tmp/` and are renamed into place, so a reader
 * never sees half a file.
 */
export class ObjectFiles {
  constructor(private readonly dataDir: string) {}

  projectDir(ref: string): string {
    return path.join(this.dataDir, 'storage', ref)
  }

  pathOf(ref: string, version: string): string {
    if (!/^[0-9a-f-]{36}$/.test(version)) throw new Error(`Not an object version: ${version}`)
    return path.join(this.projectDir(ref), 'objects', version.slice(0, 2), version)
  }

  /**
   * Streams `body` to a new version file, refusing more than `maxBytes` (the upload is cut short and
   * nothing is kept). Returns the version id, the size and the MD5 (storage-api's ETag).
   */
  async write(ref: string, body: Readable, maxBytes: number): Promise<{ version: string; size: number; etag: string }> {
    const tmpDir = path.join(this.projectDir(ref), 'tmp')
    fs.mkdirSync(tmpDir, { recursive: true, mode: 0o700 })
    const version = randomUUID()
    const tmp = path.join(tmpDir, version)
    const md5 = createHash('md5')
    let size = 0
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length
        if (size > maxBytes) return done(tooLarge())
        md5.update(chunk)
        done(null, chunk)
      },
    })
    try {
      await pipeline(body, meter, fs.createWriteStream(tmp, { mode: 0o600 }))
      const target = this.pathOf(ref, version)
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 })
      fs.renameSync(tmp, target)
      return { version, size, etag: `"${md5.digest('hex')}"` }
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

  remove(ref: string, versions: (string | null)[]): void {
    for (const version of versions) if (version) fs.rmSync(this.pathOf(ref, version), { force: true })
  }

  exists(ref: string, version: string): boolean {
    return fs.existsSync(this.pathOf(ref, version))
  }

  /** Deletes every file of a project (project deletion). */
  removeProject(ref: string): void {
    fs.rmSync(this.projectDir(ref), { recursive: true, force: true })
  }

  /** The bytes of one version, whole or a range (`end` included, as in HTTP). */
  open(ref: string, version: string, range?: { start: number; end: number }): fs.ReadStream {
    return fs.createReadStream(this.pathOf(ref, version), range ? { start: range.start, end: range.end } : undefined)
  }
}
