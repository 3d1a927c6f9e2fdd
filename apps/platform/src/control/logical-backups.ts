import fs from 'node:fs'
import path from 'node:path'
import { backupDirectory, recordBackup, type BackupRow } from './backups.js'
import { dumpToGzipFile } from './logical/index.js'
import type { OperationContext } from './operations/definitions.js'
import type { ProjectRow } from './project-store.js'

/**
 * A logical backup: the project's database as a plain-SQL dump, gzipped. It restores into any
 * empty Postgres with `gunzip -c file.sql.gz | psql`. Kept 7 deep (backups.ts RETENTION).
 */
export async function takeLogicalBackup(ctx: Pick<OperationContext, 'db' | 'projects' | 'dataDir'>, project: ProjectRow): Promise<BackupRow> {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-')
  const file = path.join(backupDirectory(ctx.dataDir, project.ref), `${stamp}-logical.sql.gz`)
  const password = ctx.projects.credentials(project).superuserPassword
  fs.mkdirSync(path.dirname(file), { recursive: true })
  await dumpToGzipFile({ host: '127.0.0.1', port: project.port, user: 'postgres', password, database: 'postgres' }, file)
  return recordBackup(ctx.db, { ref: project.ref, physical: false, file, major: project.postgres_major })
}
