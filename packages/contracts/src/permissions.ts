/**
 * Roles and permissions (docs/ARCHITECTURE.md "Accounts, invitations, permissions").
 * The server enforces these on every route; the dashboard only reads them to hide or disable controls.
 */
import { z } from 'zod'
import { ORG_ROLES, PERMISSIONS } from './values/permissions.js'
export * from './values/permissions.js'

export const OrgRole = z.enum(ORG_ROLES, { error: `Role must be one of ${ORG_ROLES.join(', ')}` })
export type OrgRole = z.infer<typeof OrgRole>

export const Permission = z.enum(PERMISSIONS)
export type Permission = z.infer<typeof Permission>

