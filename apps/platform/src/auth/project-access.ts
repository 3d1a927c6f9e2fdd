import { roleCan, type OrgRole, type Permission } from '@stratum/contracts'
import { findProjectForUser, findProjectStatusForUser, type ProjectRow } from '../control/project-store.js'
import { forbidden, notFound } from '../errors.js'
import type { Db } from '../store/db.js'
import type { ProjectAccessCache } from './project-access-cache.js'

/** What each permission lets a user do, for the 403 message. */
const DENIED: Record<Permission, string> = {
  'projects.read': 'You do not have access to this project',
  'user_content.create': 'You do not have sufficient permissions to save queries in this project',
  'sql.write': 'You do not have sufficient permissions to run queries that write to this database',
  'service_api_keys.read': 'You need additional permissions to view API keys and secrets of this project',
  'secrets.write': 'You need additional permissions to change the secrets of this project',
  'infrastructure.execute': 'You need additional permissions to change the infrastructure of this project',
  'projects.update': 'You need additional permissions to update this project',
  'projects.create': 'You need additional permissions to create a project in this organization',
  'organizations.update': 'You need additional permissions to update this organization',
  'members.write': 'You need additional permissions to manage members of this organization',
  'billing.write': 'Only an owner can change the plan of this organization',
}

export function assertCan(role: OrgRole, permission: Permission): void {
  if (!roleCan(role, permission)) throw forbidden(DENIED[permission])
}

/**
 * A user's access to a project; not a member reads as not found. The routes (http/access.ts), the AI tools and the MCP
 * endpoint all check through here. With `cache`, the lookup may be served from memory (project-access-cache.ts).
 */
export async function projectAccessOf(
  db: Db,
  userId: string,
  ref: string,
  permission?: Permission,
  cache?: ProjectAccessCache,
): Promise<{ project: ProjectRow; role: OrgRole }> {
  const found = cache ? await cache.lookup(userId, ref, () => findProjectForUser(db, userId, ref)) : await findProjectForUser(db, userId, ref)
  if (!found) throw notFound(`Project ${ref} not found`)
  if (permission) assertCan(found.role, permission)
  return found
}

/** A project's status, for a user who may read the project; not a member reads as not found, as above. */
export async function projectStatusOf(db: Db, userId: string, ref: string): Promise<ProjectRow['status']> {
  const found = await findProjectStatusForUser(db, userId, ref)
  if (!found) throw notFound(`Project ${ref} not found`)
  assertCan(found.role, 'projects.read')
  return found.status
}
