import type { InstallationSettingName, InstallationSettings, InstallationSettingsView } from '@stratum/contracts'
import type { Config } from '../config.js'
import type { Queryable } from '../store/db.js'

/**
 * Installation settings live in one row of the platform database (migration 008); an environment
 * variable, when set, fixes a setting and wins over the row (README "Settings").
 */
export async function readInstallationSettings(db: Queryable, config: Config): Promise<{ settings: InstallationSettings; setByEnvironment: InstallationSettingName[] }> {
  const { rows } = await db.query<InstallationSettings>('SELECT organization_creation, plan_changes FROM installation_settings')
  const stored = rows[0] ?? { organization_creation: 'everyone', plan_changes: 'installation_owner' }
  const setByEnvironment: InstallationSettingName[] = []
  if (config.organizationCreation) setByEnvironment.push('organization_creation')
  if (config.planChanges) setByEnvironment.push('plan_changes')
  return {
    settings: {
      organization_creation: config.organizationCreation ?? stored.organization_creation,
      plan_changes: config.planChanges ?? stored.plan_changes,
    },
    setByEnvironment,
  }
}

export async function writeInstallationSettings(db: Queryable, changes: Partial<InstallationSettings>): Promise<void> {
  await db.query(
    `UPDATE installation_settings SET
       organization_creation = coalesce($1, organization_creation),
       plan_changes = coalesce($2, plan_changes),
       updated_at = now()`,
    [changes.organization_creation ?? null, changes.plan_changes ?? null],
  )
}

/** The installation's owner is its first account (created at the first start). */
export async function isInstallationOwner(db: Queryable, userId: string): Promise<boolean> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM users ORDER BY created_at, id LIMIT 1')
  return rows[0]?.id === userId
}

export async function installationSettingsView(db: Queryable, config: Config, userId: string): Promise<InstallationSettingsView> {
  const { settings, setByEnvironment } = await readInstallationSettings(db, config)
  return { ...settings, is_installation_owner: await isInstallationOwner(db, userId), set_by_environment: setByEnvironment }
}
