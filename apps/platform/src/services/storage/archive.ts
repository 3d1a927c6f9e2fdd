import fs from 'node:fs'
import path from 'node:path'
import { createHash, randomUUID } from 'node:crypto'
import { pipeline } from 'node:stream/promises'
import { ZipFile } from 'yazl'
import type { Bucket } from '@stratum/contracts'
import type { Db } from '../../store/db.js'

/**
 * The storage archive of a project: a zip with buckets.json (every bucket record) and each
 * bucket's objects under '<bucket>/<object name>'. Built in the background; the request row says where it is.
 */
export interface ArchiveRow {
  project_ref: string
  id: string
  status: 'building' | 'ready' | 'failed'
  file_path: string | null
  error: string | null
}

export const archivesDir = (dataDir: string, ref: string) => path.join(dataDir, 'storage-archives', ref)

export async function findArchive(db: Db, ref: string): Promise<ArchiveRow | null> {
  const { rows } = await db.query<ArchiveRow>('SELECT * FROM storage_archives WHERE project_ref = $1', [ref])
  return rows[0] ?? null
}

/** What goes into an archive: the bucket records, and each object's name and the file holding its bytes. */
export interface ArchiveContents {
  buckets: Bucket[]
  objects: { bucket: string; name: string; file: string }[]
}

export type ArchiveSource = () => Promise<ArchiveContents>

/** Characters never written raw into an entry: the escape itself, other systems' separators and reserved characters, controls. */
const RESERVED_CHARACTERS = new Set(['%', '\\', ':', '*', '?', '"', '<', '>', '|'])

function hasUnsafeCharacter(name: string): boolean {
  for (const char of name) {
    const code = char.charCodeAt(0)
    if (RESERVED_CHARACTERS.has(char) || code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true
  }
  return false
}
/** Entry names stay well below the zip format's 64 KB (and what extractors take). */
const MAX_ENTRY_BYTES = 4096

/** A segment an extractor could read as a step up, as none, or (after normalisation) as a separator. */
function isPathLikeSegment(segment: string): boolean {
  return [segment, segment.normalize('NFKC')].some((form) => /^[.\s]*$/.test(form) || /[\\/]/.test(form))
}

/** One segment, percent-encoded ('/' included); '*' too (Windows), and the dots of a name made only of dots. */
function percentEncode(text: string): string {
  const encoded = encodeURIComponent(text).replace(/\*/g, '%2A')
  return /^\.+$/.test(encoded) ? encoded.replace(/\./g, '%2E') : encoded
}

/**
 * Where a stored name goes in the zip, relative to its folder. Names already stored may hold anything a
 * tenant could write with SQL (`a\..\..\escape.txt`, `../x`, `a//b`, ''): such a name is written
 * percent-encoded as one file name (`a%5C..%5C..%5Cescape.txt`), so no entry ever leaves its folder and
 * the build never fails. A safe name holds no '%', an encoded one always does:
 * two names never share an entry. An empty name is '%00' (no stored name can hold a NUL).
 */
export function archiveEntryName(name: string): string {
  if (name === '') return '%00'
  const safe = !hasUnsafeCharacter(name) && !name.split('/').some(isPathLikeSegment)
  const entry = safe ? name : percentEncode(name)
  if (Buffer.byteLength(entry) <= MAX_ENTRY_BYTES) return entry
  // A name longer than any upload allows (written with SQL): its digest, listed in names.json.
  return `%23${createHash('sha256').update(name).digest('hex')}`
}

/** A bucket's folder: one segment, so a '/' in a bucket id (written with SQL) is encoded too. */
const archiveFolderName = (id: string) => (id.includes('/') ? percentEncode(id) : archiveEntryName(id))

async function writeZip(source: ArchiveSource, target: string): Promise<void> {
  const { buckets, objects } = await source()
  const zip = new ZipFile()
  zip.addBuffer(Buffer.from(JSON.stringify(buckets, null, 2) + '\n'), 'buckets.json')
  for (const bucket of buckets) {
    if (!objects.some((object) => object.bucket === bucket.id)) zip.addEmptyDirectory(archiveFolderName(bucket.id))
  }
  // Every entry stays inside its bucket's folder, whatever the stored names hold; names.json maps the
  // entries written under another name back to the bucket and name they hold.
  const renamed: { bucket: string; name: string; entry: string }[] = []
  for (const object of objects) {
    const entry = `${archiveFolderName(object.bucket)}/${archiveEntryName(object.name)}`
    if (entry !== `${object.bucket}/${object.name}`) renamed.push({ bucket: object.bucket, name: object.name, entry })
    zip.addFile(object.file, entry)
  }
  if (renamed.length) zip.addBuffer(Buffer.from(JSON.stringify(renamed, null, 2) + '\n'), 'names.json')
  zip.end()
  const partial = `${target}.partial`
  await pipeline(zip.outputStream, fs.createWriteStream(partial))
  fs.renameSync(partial, target)
}

/** Builds of this process, by project: a 'building' row without one here is resumed (server restarted). */
const running = new Map<string, Promise<void>>()

export function buildArchive(db: Db, source: ArchiveSource, dataDir: string, ref: string, id: string, log: (err: unknown) => void): Promise<void> {
  const key = `${ref}/${id}`
  const existing = running.get(key)
  if (existing) return existing
  const dir = archivesDir(dataDir, ref)
  const target = path.join(dir, `${ref}-storage-${id}.zip`)
  const job = (async () => {
    try {
      fs.mkdirSync(dir, { recursive: true })
      await writeZip(source, target)
      const { rowCount } = await db.query(
        `UPDATE storage_archives SET status = 'ready', file_path = $3, updated_at = now() WHERE project_ref = $1 AND id = $2`,
        [ref, id, target],
      )
      // Replaced by a newer request meanwhile: this file is nobody's.
      if (!rowCount) fs.rmSync(target, { force: true })
    } catch (error) {
      log(error)
      fs.rmSync(target, { force: true })
      await db
        .query(`UPDATE storage_archives SET status = 'failed', error = $3, updated_at = now() WHERE project_ref = $1 AND id = $2`, [
          ref, id, error instanceof Error ? error.message : String(error),
        ])
        .catch(() => {})
    } finally {
      running.delete(key)
    }
  })()
  running.set(key, job)
  return job
}

export const isBuilding = (ref: string, id: string) => running.has(`${ref}/${id}`)

/** Records a new request (replacing the previous archive and its file) and starts building it. */
export async function requestArchive(db: Db, source: ArchiveSource, dataDir: string, ref: string, userId: string, log: (err: unknown) => void): Promise<string> {
  const id = randomUUID()
  const previous = await findArchive(db, ref)
  await db.query(
    `INSERT INTO storage_archives (project_ref, id, status, requested_by) VALUES ($1, $2, 'building', $3)
     ON CONFLICT (project_ref) DO UPDATE SET id = $2, status = 'building', file_path = NULL, error = NULL,
       requested_by = $3, created_at = now(), updated_at = now()`,
    [ref, id, userId],
  )
  if (previous?.file_path) fs.rmSync(previous.file_path, { force: true })
  void buildArchive(db, source, dataDir, ref, id, log)
  return id
}
