import fs from 'node:fs'
import path from 'node:path'
import type { Queryable } from '../store/db.js'

export interface BackupRow {
  id: string
  project_ref: string
  is_physical_backup: boolean
  status: 'COMPLETED' | 'FAILED' | 'PENDING' | 'REMOVED'
  file_path: string
  size_bytes: string
  postgres_major: string
  inserted_at: Date
}

/** How many backups of each kind a project keeps; older ones are deleted with their files. */
export const RETENTION = { logical: 7, physical: 3 } as const

/** Backups live in <data dir>/backups/<ref>/ (README "Backups"). */
export function backupDirectory(dataDir: string, ref: string): string {
  return path.join(dataDir, 'backups', ref)
}

export async function recordBackup(
  db: Queryable,
  backup: { ref: string; physical: boolean; file: string; major: string },
): Promise<BackupRow> {
  const size = fs.statSync(backup.file).size
  const { rows } = await db.query<BackupRow>(
    `INSERT INTO backups (project_ref, is_physical_backup, status, file_path, size_bytes, postgres_major)
     VALUES ($1, $2, 'COMPLETED', $3, $4, $5) RETURNING *`,
    [backup.ref, backup.physical, backup.file, size, backup.major],
  )
  await pruneBackups(db, backup.ref, backup.physical)
  return rows[0]!
}

export async function listBackups(db: Queryable, ref: string): Promise<BackupRow[]> {
  const { rows } = await db.query<BackupRow>(
    `SELECT * FROM backups WHERE project_ref = $1 AND status = 'COMPLETED' ORDER BY inserted_at DESC, id DESC`,
    [ref],
  )
  return rows
}

export async function findBackupByFile(db: Queryable, file: string): Promise<BackupRow | null> {
  const { rows } = await db.query<BackupRow>('SELECT * FROM backups WHERE file_path = $1', [file])
  return rows[0] ?? null
}

async function pruneBackups(db: Queryable, ref: string, physical: boolean): Promise<void> {
  const keep = physical ? RETENTION.physical : RETENTION.logical
  const { rows } = await db.query<BackupRow>(
    `DELETE FROM backups WHERE id IN (
       SELECT id FROM backups WHERE project_ref = $1 AND is_physical_backup = $2
       ORDER BY inserted_at DESC, id DESC OFFSET $3)
     RETURNING *`,
    [ref, physical, keep],
  )
  for (const row of rows) fs.rmSync(row.file_path, { force: true })
}
