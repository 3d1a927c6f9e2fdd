import { AI_SETTINGS_TEXTS } from '@stratum/contracts'
import { Alert } from '../../components/ui/Alert'
import { PageHeader } from '../../components/ui/PageHeader'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useAiSettings } from '../../data/ai-settings/useAiSettings'
import { useInstallationSettings } from '../../data/organizations/useInstallationSettings'
import { usePageTitle } from '../../lib/usePageTitle'
import { AiProviderForm } from './AiProviderForm'
import { AiProviderStatus } from './AiProviderStatus'
import './ai-settings.css'

/** /installation/ai: the installation's AI provider, for its owner; everyone else is told who decides. */
export function AiSettingsPage() {
  usePageTitle(['AI provider', 'Installation'])
  const installation = useInstallationSettings()
  const owner = installation.data?.is_installation_owner === true
  const settings = useAiSettings(owner)
  const version = `${settings.data?.source}:${settings.data?.updated_at}`

  return (
    <div className="page page-narrow">
      <PageHeader
        eyebrow="Installation"
        title="AI provider"
        description="The model behind the SQL editor's AI features and the assistant, for every organization on this installation."
      />
      {installation.isPending || (owner && settings.isPending) ? <LoadingState /> : null}
      {installation.data && !owner ? (
        <Alert tone="info" title={AI_SETTINGS_TEXTS.manage}>
          Ask them to choose the provider, or to set STRATUM_AI_PROVIDER where the platform runs.
        </Alert>
      ) : null}
      {installation.isError || settings.isError ? (
        <Alert tone="danger" title="Could not load the AI provider settings">
          {errorMessage(installation.error ?? settings.error)}
        </Alert>
      ) : null}
      {owner && settings.data ? (
        <div className="stack">
          {/* Both start afresh after each save or reset: the form from what is now in force, the status without an old Test outcome. */}
          <AiProviderStatus key={`status:${version}`} view={settings.data} />
          <AiProviderForm key={`form:${version}`} view={settings.data} />
        </div>
      ) : null}
    </div>
  )
}
