/**
 * Installation settings: their choices, labels and texts, and who may do what under them.
 * Plain values only, no zod: the dashboard imports these without the schemas (see the contracts README).
 */
import { roleCan, type OrgRole } from './permissions.js'

export const ORGANIZATION_CREATION = ['everyone', 'installation_owner'] as const
export type OrganizationCreation = (typeof ORGANIZATION_CREATION)[number]

export const PLAN_CHANGES = ['installation_owner', 'organization_owners'] as const
export type PlanChanges = (typeof PLAN_CHANGES)[number]

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

/** What the rules below read of the settings view (installation.ts's InstallationSettingsView has it). */
interface InstallationPolicyView {
  organization_creation: OrganizationCreation
  plan_changes: PlanChanges
  is_installation_owner: boolean
}

/** Who may create an organization, as the server decides it (for the dashboard's controls). */
export function mayCreateOrganization(view: InstallationPolicyView): boolean {
  return view.organization_creation === 'everyone' || view.is_installation_owner
}

/** Who may change an organization's plan, as the server decides it: `role` is the caller's role in it. */
export function mayChangePlan(view: InstallationPolicyView, role: OrgRole): boolean {
  return view.plan_changes === 'organization_owners' ? roleCan(role, 'billing.write') : view.is_installation_owner
}
