import type { Logger } from 'pino'
import type { StorageDatabases } from './database.js'
import type { ObjectFiles } from './files.js'
import type { ImageTransforms } from './image-transform.js'

/** What the storage handlers share (the StorageService is one). */
export interface StorageContext {
  dbs: StorageDatabases
  files: ObjectFiles
  /** Image transformations (the render routes) and their cache. */
  images: ImageTransforms
  maxFileBytes: number
  /** The largest object the project's buckets accept: its own setting, within the installation's. */
  projectMaxFileBytes(ref: string): Promise<number>
  /** Whether the project serves the render routes (its storage config's imageTransformation). */
  imageTransformationEnabled(ref: string): Promise<boolean>
  log: Logger
}
