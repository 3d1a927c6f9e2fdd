import type { Logger } from 'pino'
import type { StorageDatabases } from './database.js'
import type { ObjectFiles } from './files.js'

/** What the storage handlers share (the StorageService is one). */
export interface StorageContext {
  dbs: StorageDatabases
  files: ObjectFiles
  maxFileBytes: number
  log: Logger
}
