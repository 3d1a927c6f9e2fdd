import type { IdentityResolver } from '../auth/identity.js'
import type { Config } from '../config.js'
import type { OperationRunner } from '../control/operations/runner.js'
import type { ProjectService } from '../control/projects.js'
import type { SecretBox } from '../control/secret-box.js'
import type { Db } from '../store/db.js'
import type { ProjectAccessCache } from './project-access-cache.js'

/** What every route family gets: the platform's long-lived services. */
export interface PlatformContext {
  config: Config
  db: Db
  identities: IdentityResolver
  projects: ProjectService
  operations: OperationRunner
  secrets: SecretBox
  /** Users' access to projects, cached for the SQL routes (project-access-cache.ts). */
  accessCache: ProjectAccessCache
}
