/**
 * Logical backups: plain-SQL dumps of a project database and their restore, without pg_dump or
 * psql binaries (the embedded Postgres packages ship neither). Used by daily backups (.sql.gz)
 * and by major-version upgrades (dump the old instance, restore into the new one).
 */
export type { LogicalConnection } from './connection.js'
export { dumpDatabase } from './dump-database.js'
export type { DumpOptions } from './dump-options.js'
export { restoreDump, RestoreError, type RestoreOptions, type RestoreSummary } from './restore-dump.js'
export { readSqlScript, type ScriptItem } from './sql-script-reader.js'
export { dumpToGzipFile, restoreFromGzipFile, type GzipDumpResult } from './gzip-files.js'
