import fs from 'node:fs'
import path from 'node:path'
import type { Queryable } from '../store/db.js'
import { backupDirectory, findBackupByFile, recordBackup, type BackupRow } from './backups.js'
import { dumpToGzipFile } from './logical/index.js'
import type { ProjectRow } from './project-store.js'
import type { ProjectService } from './projects.js'

/** What a logical backup needs of the platform (an operation's context has it all). */
export interface LogicalBackupContext {
  db: Queryable
  projects: ProjectService
  dataDir: string
}

/**
 * A logical backup: the project's database as a plain-SQL dump, gzipped. It restores into any
 * empty Postgres with `gunzip -c file.sql.gz | psql`. Kept 7 deep (backups.ts RETENTION).
 */
export async function takeLogicalBackup(ctx: LogicalBackupContext, project: ProjectRow): Promise<BackupRow> {
  const file = logicalBackupFile(ctx.dataDir, project.ref)
  await dumpLogicalBackup(ctx, project, file)
  return recordLogicalBackup(ctx, project, file)
}

/** Where a backup started at `at` goes: a backup run again after a crash writes the same file. */
export function logicalBackupFile(dataDir: string, ref: string, at = new Date()): string {
  const stamp = at.toISOString().replace(/[:.]/g, '-')
  return path.join(backupDirectory(dataDir, ref), `${stamp}-logical.sql.gz`)
}

/** Writes the dump to `file`, from the start each time it runs. */
export async function dumpLogicalBackup(ctx: LogicalBackupContext, project: ProjectRow, file: string): Promise<void> {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  await dumpToGzipFile(ctx.projects.adminConnection(project), file)
}

/** Records the written dump as one of the project's backups, once however often it runs. */
export async function recordLogicalBackup(ctx: LogicalBackupContext, project: ProjectRow, file: string): Promise<BackupRow> {
  return (await findBackupByFile(ctx.db, file)) ?? recordBackup(ctx.db, { ref: project.ref, physical: false, file, major: project.postgres_major })
}
