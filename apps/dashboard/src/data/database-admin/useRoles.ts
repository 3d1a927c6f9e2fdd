import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { readCatalog } from '../table-editor/runEditorSql'
import { request } from '../request'
import { ROLE_CATALOG_QUERY, roleGrantsQuery } from './catalog-sql'
import { databaseAdminKeys } from './keys'
import type { RoleCatalog, RoleGrants } from './types'

/** The roles with their attributes, in postgres-meta's shape (Postgres's own pg_* roles left out). */
export const rolesQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseAdminKeys.roles(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /platform/pg-meta/{ref}/roles', { params: { ref }, signal }) : skipToken,
  })

/** Memberships and which roles the project may change. */
export const roleCatalogQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseAdminKeys.roleCatalog(ref ?? ''),
    queryFn: ref ? ({ signal }) => readCatalog<RoleCatalog>(ref, ROLE_CATALOG_QUERY, signal) : skipToken,
  })

export const roleGrantsListQuery = (ref: string | undefined, role: string | undefined, schema: string) =>
  queryOptions({
    queryKey: databaseAdminKeys.roleGrants(ref ?? '', role ?? '', schema),
    queryFn: ref && role ? ({ signal }) => readCatalog<RoleGrants>(ref, roleGrantsQuery(role, schema), signal) : skipToken,
  })

export const useRoles = (ref: string | undefined) => useQuery(rolesQuery(ref))
export const useRoleCatalog = (ref: string | undefined) => useQuery(roleCatalogQuery(ref))
/** What one role is granted in one schema. */
export const useRoleGrants = (ref: string | undefined, role: string | undefined, schema: string) => useQuery(roleGrantsListQuery(ref, role, schema))
