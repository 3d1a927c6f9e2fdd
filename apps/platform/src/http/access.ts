import type { OrgRole, Permission } from '@stratum/contracts'
import type { FastifyRequest } from 'fastify'
import type { Identity } from '../auth/identity.js'
import { findMembership, type Membership } from '../auth/organizations.js'
import { assertCan, projectAccessOf } from '../auth/project-access.js'
import type { ProjectAccessCache } from '../auth/project-access-cache.js'
import type { ProjectRow } from '../control/project-store.js'
import { notFound, unauthenticated } from '../errors.js'
import type { Db } from '../store/db.js'

/** The signed-in caller's checks, for routes: who they are, and their access to an organization or project. */

export function identityOf(request: FastifyRequest): Identity {
  if (!request.identity) throw unauthenticated('Not signed in')
  return request.identity
}

/** The caller's membership of an organization; not a member reads as not found. */
export async function orgAccess(db: Db, request: FastifyRequest, slug: string, permission?: Permission): Promise<Membership> {
  const membership = await findMembership(db, identityOf(request).user.id, slug)
  if (!membership) throw notFound(`Organization ${slug} not found`)
  if (permission) assertCan(membership.role, permission)
  return membership
}

/**
 * The caller's access to a project (auth/project-access.ts); the SQL routes, run on every query, pass the
 * cache.
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
