/**
 * Installation settings (docs/ARCHITECTURE.md "Accounts, invitations, permissions"): who may create organizations
 * and who may change an organization's plan. The installation's owner is its first account.
 */
import { z } from 'zod'
import { ORGANIZATION_CREATION, PLAN_CHANGES } from './values/installation.js'
export * from './values/installation.js'

export const OrganizationCreation = z.enum(ORGANIZATION_CREATION, {
  error: `organization_creation must be one of ${ORGANIZATION_CREATION.join(', ')}`,
})
export type OrganizationCreation = z.infer<typeof OrganizationCreation>

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
