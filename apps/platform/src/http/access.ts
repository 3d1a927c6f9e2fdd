import { roleCan, type OrgRole, type Permission } from '@stratum/contracts'
import type { FastifyRequest } from 'fastify'
import { findMembership, type Membership } from '../auth/organizations.js'
import type { Identity } from '../auth/identity.js'
import type { Db } from '../store/db.js'
import { findProjectForUser, type ProjectRow } from '../control/project-store.js'
import { HttpError, forbidden, notFound } from './errors.js'
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

export function identityOf(request: FastifyRequest): Identity {
  if (!request.identity) throw new HttpError(401, 'Not signed in')
  return request.identity
}

export function assertCan(role: OrgRole, permission: Permission): void {
  if (!roleCan(role, permission)) throw forbidden(DENIED[permission])
}

/** The caller's membership of an organization; not a member reads as not found. */
export async function orgAccess(db: Db, request: FastifyRequest, slug: string, permission?: Permission): Promise<Membership> {
  const membership = await findMembership(db, identityOf(request).user.id, slug)
  if (!membership) throw notFound(`Organization ${slug} not found`)
  if (permission) assertCan(membership.role, permission)
  return membership
}

/**
 * The caller's access to a project; not a member reads as not found. With `cache`, the lookup
 * may be served from memory (project-access-cache.ts): the SQL routes, run on every query.
 */
export async function projectAccess(
  db: Db,
  request: FastifyRequest,
  ref: string,
  permission?: Permission,
  cache?: ProjectAccessCache,
): Promise<{ project: ProjectRow; role: OrgRole }> {
  return projectAccessOf(db, identityOf(request).user.id, ref, permission, cache)
}

/** projectAccess for a user known otherwise than by a request: the AI tools (ai/tools/) check exactly what the routes check. */
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
