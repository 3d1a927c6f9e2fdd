import fs from 'node:fs'
import { PeriodicPass } from '../periodic-pass.js'
import path from 'node:path'
import type { Logger } from 'pino'
import type { Db } from '../../store/db.js'
import { postgresLogLine } from './postgres-log.js'
import { insertLogLines, maintainLogStore, type LogLine } from './store.js'

const STREAM = 'postgres_logs'
/** The jsonlog files Postgres writes (local-provider.ts sets log_filename; names sort by time). */
const LOG_FILE = /^postgresql-[\d_-]+\.json$/
/** Bytes read from a file per transaction, so one large backlog never makes one huge statement. */
const CHUNK_BYTES = 4 * 1024 * 1024
const MAINTAIN_EVERY_MS = 60_000
/** A file read to its end and followed by a newer one is deleted after this long (kept a while for people reading it). */
const DELETE_READ_FILES_AFTER_MS = 60 * 60_000

export interface LogCollectorOptions {
  db: Db
  log: Logger
  /** Where a project's instance writes its jsonlog files; null when it has none here. */
  logDirOf: (ref: string) => string | null
  intervalMs?: number
}

/**
 * Copies each project instance's Postgres log (jsonlog files in its data directory) into the log store.
 * It reads files, so it costs the instances nothing on their query path. Each batch of lines and the
 * position after it (file + byte offset, in log_positions) are written in one statement: a crash or a
 * restart resumes exactly after the last line stored, neither losing nor repeating one. Only whole lines
 * are read; a line Postgres is still writing waits for the next run.
 */
export class LogCollector extends PeriodicPass {
  private lastMaintained = 0
  /** Each project's position as this collector last stored it (read from log_positions once, then kept here). */
  private readonly positions = new Map<string, { file: string; position: number }>()

  constructor(private readonly options: LogCollectorOptions) {
    super()
  }

  protected interval(): number {
    return this.options.intervalMs ?? 2000
  }

  protected async pass(): Promise<void> {
    const { db, log } = this.options
    try {
      if (Date.now() - this.lastMaintained > MAINTAIN_EVERY_MS) {
        await maintainLogStore(db)
        this.lastMaintained = Date.now()
      }
      const { rows } = await db.query<{ ref: string }>('SELECT ref FROM projects ORDER BY ref')
      for (const { ref } of rows) {
        await this.collectProject(ref).catch((error: Error) => log.warn({ err: error, ref }, 'log collector: cannot read the instance log'))
      }
    } catch (error) {
      log.warn({ err: error }, 'log collector: pass failed')
    }
  }

  private async collectProject(ref: string): Promise<void> {
    const dir = this.options.logDirOf(ref)
    if (!dir) return
    let files: string[]
    try {
      files = (await fs.promises.readdir(dir)).filter((name) => LOG_FILE.test(name)).sort()
    } catch {
      return // no log directory yet (never started with logging on)
    }
    let recorded = this.positions.get(ref)
    if (!recorded) {
      const { rows } = await this.options.db.query<{ file: string; position: string }>(
        'SELECT file, position FROM log_positions WHERE project_ref = $1 AND stream = $2',
        [ref, STREAM],
      )
      if (rows[0]) recorded = { file: rows[0].file, position: Number(rows[0].position) }
    }
    for (const [index, file] of files.entries()) {
      if (recorded && file < recorded.file) {
        if (index < files.length - 1) await this.deleteIfOld(path.join(dir, file))
        continue
      }
      let offset = recorded && file === recorded.file ? recorded.position : 0
      for (;;) {
        const { position, more } = await this.readChunk(ref, path.join(dir, file), file, offset)
        offset = position
        if (!more) break
      }
    }
  }

  /**
   * Stores the whole lines after `offset` (up to a chunk) with the new position; answers that position, and
   * whether the file may hold more (a whole chunk was read).
   */
  private async readChunk(ref: string, filePath: string, file: string, offset: number): Promise<{ position: number; more: boolean }> {
    const handle = await fs.promises.open(filePath, 'r')
    let text: Buffer
    try {
      const { size } = await handle.stat()
      // A file shorter than the recorded position was replaced (same name, new content): read it from the start.
      if (size < offset) offset = 0
      const length = Math.min(size - offset, CHUNK_BYTES)
      if (length <= 0) return { position: offset, more: false }
      text = Buffer.alloc(length)
      await handle.read(text, 0, length, offset)
    } finally {
      await handle.close()
    }
    const end = text.lastIndexOf(0x0a)
    if (end < 0) return { position: offset, more: false } // no whole line yet
    const lines: LogLine[] = []
    for (const raw of text.subarray(0, end).toString('utf8').split('\n')) {
      const line = raw.trim() ? postgresLogLine(raw, ref) : null
      if (line) lines.push(line)
    }
    const position = offset + end + 1
    // The lines and the position after them in one statement: both or neither.
    try {
      await insertLogLines(this.options.db, ref, lines, { stream: STREAM, file, position })
    } catch (error) {
      this.positions.delete(ref) // read log_positions again next time
      throw error
    }
    this.positions.set(ref, { file, position })
    return { position, more: text.length === CHUNK_BYTES }
  }

  private async deleteIfOld(filePath: string): Promise<void> {
    const stat = await fs.promises.stat(filePath).catch(() => null)
    if (stat && Date.now() - stat.mtimeMs > DELETE_READ_FILES_AFTER_MS) await fs.promises.rm(filePath, { force: true })
  }
}
