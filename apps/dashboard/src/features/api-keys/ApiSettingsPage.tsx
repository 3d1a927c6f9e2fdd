import { PageHeader } from '../../components/ui/PageHeader'
import { useLegacyApiKeys } from '../../data/api-keys/useLegacyApiKeys'
import { useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useCan, useOrgPermissions } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { DataApiSettingsCard } from './DataApiSettingsCard'
import { LegacyKeysCard } from './LegacyKeysCard'
import { NamedKeysCard } from './NamedKeysCard'
import { ProjectApiKeysCard } from './ProjectApiKeysCard'
import { ProjectConfigCard } from './ProjectConfigCard'
import { useJwtUpdate } from './useJwtUpdate'
import './api-keys.css'

/** /project/{ref}/settings/api: the API keys, the URL and JWT secret, the data API settings, and the legacy keys switch. */
export function ApiSettingsPage() {
  useProjectPageTitle('API Settings')
  const { ref, project } = useCurrentProject()
  const orgSlug = project?.organization_slug
  const canReadSecrets = useCan(orgSlug, 'service_api_keys.read')
  const canWriteSecrets = useCan(orgSlug, 'secrets.write')
  const canUpdateProject = useCan(orgSlug, 'projects.update')
  // Until the member's permissions are known the keys wait, rather than flash the no-permission texts to an owner.
  const permissionsKnown = useOrgPermissions(orgSlug) !== undefined
  const settings = useProjectSettings(ref)
  const legacy = useLegacyApiKeys(ref)
  const jwt = useJwtUpdate(ref)

  return (
    <div className="page page-narrow">
      <PageHeader title="API Settings" description="The keys and configuration your apps use to call this project's API." />
      <div className="stack">
        <ProjectApiKeysCard
          projectRef={ref}
          settings={settings}
          canReadSecrets={permissionsKnown ? canReadSecrets : undefined}
          lockedReason={jwt.lockedReason}
          legacyDisabled={legacy.data?.enabled === false}
        />
        <NamedKeysCard projectRef={ref} canReadSecrets={canReadSecrets} canWriteSecrets={canWriteSecrets} />
        <ProjectConfigCard
          projectRef={ref}
          settings={settings}
          canReadSecrets={canReadSecrets}
          canWriteSecrets={canWriteSecrets}
          jwt={jwt}
        />
        <DataApiSettingsCard projectRef={ref} canUpdate={canUpdateProject} />
        <LegacyKeysCard projectRef={ref} legacy={legacy} canWriteSecrets={canWriteSecrets} />
      </div>
    </div>
  )
}
