/**
 * Installation settings (docs/ARCHITECTURE.md "Accounts, invitations, permissions"): who may create organizations
 * and who may change an organization's plan. The installation's owner is its first account.
 */
import { z } from 'zod'
import { roleCan, type OrgRole } from './permissions.js'

export const ORGANIZATION_CREATION = ['everyone', 'installation_owner'] as const
export const OrganizationCreation = z.enum(ORGANIZATION_CREATION, {
  error: `organization_creation must be one of ${ORGANIZATION_CREATION.join(', ')}`,
})
export type OrganizationCreation = z.infer<typeof OrganizationCreation>

export const PLAN_CHANGES = ['installation_owner', 'organization_owners'] as const
export const PlanChanges = z.enum(PLAN_CHANGES, { error: `plan_changes must be one of ${PLAN_CHANGES.join(', ')}` })
export type PlanChanges = z.infer<typeof PlanChanges>

export const InstallationSettings = z.object({
  organization_creation: OrganizationCreation,
  plan_changes: PlanChanges,
})
export type InstallationSettings = z.infer<typeof InstallationSettings>
export type InstallationSettingName = keyof InstallationSettings

/** GET /platform/installation/settings: the settings in force, and what the caller may do about them. */
export const InstallationSettingsView = InstallationSettings.extend({
  is_installation_owner: z.boolean(),
  /** Settings fixed by an environment variable: they cannot be changed from the API. */
  set_by_environment: z.array(z.enum(['organization_creation', 'plan_changes'])),
})
export type InstallationSettingsView = z.infer<typeof InstallationSettingsView>

/** PATCH /platform/installation/settings (installation owner only). */
export const UpdateInstallationSettingsBody = InstallationSettings.partial()
  .strict()
  .refine((body) => Object.keys(body).length > 0, 'Name at least one setting to change')

export const INSTALLATION_TEXTS = {
  createOrganization: "Only the installation's owner can create organizations on this installation",
  changePlan: "Only the installation's owner can change the plan of an organization on this installation",
  manageSettings: "Only the installation's owner can change the installation's settings",
} as const

export const ORGANIZATION_CREATION_LABELS: Record<OrganizationCreation, string> = {
  everyone: 'Every account',
  installation_owner: "Only the installation's owner",
}
export const PLAN_CHANGES_LABELS: Record<PlanChanges, string> = {
  installation_owner: "Only the installation's owner",
  organization_owners: "Each organization's owners",
}

/** Who may create an organization, as the server decides it (for the dashboard's controls). */
export function mayCreateOrganization(view: InstallationSettingsView): boolean {
  return view.organization_creation === 'everyone' || view.is_installation_owner
}

/** Who may change an organization's plan, as the server decides it: `role` is the caller's role in it. */
export function mayChangePlan(view: InstallationSettingsView, role: OrgRole): boolean {
  return view.plan_changes === 'organization_owners' ? roleCan(role, 'billing.write') : view.is_installation_owner
}
