import { INSTALLATION_TEXTS, type OrgRole } from '@stratum/contracts'
import { isInstallationOwner, readInstallationSettings } from '../auth/installation.js'
import type { PlatformContext } from '../platform-context.js'
import { forbidden } from '../errors.js'
import { assertCan } from '../auth/project-access.js'

/** Installation setting "who may create organizations": every account, or only the installation's owner. */
export async function assertMayCreateOrganization(ctx: PlatformContext, userId: string): Promise<void> {
  const { settings } = await readInstallationSettings(ctx.db, ctx.config)
  if (settings.organization_creation === 'everyone') return
  if (!(await isInstallationOwner(ctx.db, userId))) throw forbidden(INSTALLATION_TEXTS.createOrganization)
}

/**
 * Installation setting "who may change an organization's plan": the installation's owner (the
 * default, so the free-project limit holds), or each organization's owners (billing.write).
 * Either way the caller is a member of the organization (orgAccess found them).
 */
export async function assertMayChangePlan(ctx: PlatformContext, userId: string, role: OrgRole): Promise<void> {
  const { settings } = await readInstallationSettings(ctx.db, ctx.config)
  if (settings.plan_changes === 'organization_owners') return assertCan(role, 'billing.write')
  if (!(await isInstallationOwner(ctx.db, userId))) throw forbidden(INSTALLATION_TEXTS.changePlan)
}

