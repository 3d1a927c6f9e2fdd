import type { OrgPermissions, OrgRole, Permission } from '@stratum/contracts'
import { usePermissions } from './usePermissions'

export function useOrgPermissions(orgSlug: string | undefined): OrgPermissions | undefined {
  const { data } = usePermissions()
  return orgSlug ? data?.find((entry) => entry.organization_slug === orgSlug) : undefined
}

/**
 * Whether the signed-in user holds a permission in an organization. False while the
 * permissions are loading, so a control never flashes enabled and then disables itself.
 */
export function useCan(orgSlug: string | undefined, permission: Permission): boolean {
  return useOrgPermissions(orgSlug)?.permissions.includes(permission) ?? false
}

export function useOrgRole(orgSlug: string | undefined): OrgRole | undefined {
  return useOrgPermissions(orgSlug)?.role
}
