import { AI_SETTINGS_PROVIDER_LABELS, type AiProviderSettingsView, type AiSettingsTestResponse, type AiSettingsView } from '@stratum/contracts'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { Dialog } from '../../components/ui/Dialog'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useResetAiSettings } from '../../data/ai-settings/useResetAiSettings'
import { useTestAiSettings } from '../../data/ai-settings/useTestAiSettings'

const SOURCE_BADGES: Record<AiSettingsView['source'], { label: string; tone: 'success' | 'info' | 'neutral' }> = {
  saved: { label: 'Saved settings', tone: 'success' },
  environment: { label: 'Environment defaults', tone: 'info' },
  none: { label: 'Off', tone: 'neutral' },
}

function Summary({ settings }: { settings: AiProviderSettingsView }) {
  return (
    <dl className="ai-settings-summary">
      <dt>Provider</dt>
      <dd>{AI_SETTINGS_PROVIDER_LABELS[settings.provider]}</dd>
      <dt>Model</dt>
      <dd className="mono">{settings.model}</dd>
      <dt>Base URL</dt>
      <dd className="mono">{settings.base_url ?? <span className="muted">The provider’s own</span>}</dd>
      <dt>API key</dt>
      <dd>{settings.has_key ? 'Set' : <span className="muted">None</span>}</dd>
    </dl>
  )
}

/** What is in force and where it comes from, the Test call and its outcome, and the way back to the environment. */
export function AiProviderStatus({ view }: { view: AiSettingsView }) {
  const toast = useToast()
  const test = useTestAiSettings()
  const reset = useResetAiSettings()
  const [outcome, setOutcome] = useState<AiSettingsTestResponse | null>(null)
  const [confirming, setConfirming] = useState(false)
  const badge = SOURCE_BADGES[view.source]

  const onTest = () => {
    setOutcome(null)
    test.mutate(undefined, {
      onSuccess: setOutcome,
      onError: (error) => toast.error('Could not test the AI provider', errorMessage(error)),
    })
  }
  const onReset = () =>
    reset.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false)
        setOutcome(null)
        toast.success('AI provider reset to the environment defaults')
      },
      onError: (error) => toast.error('Could not reset the AI provider', errorMessage(error)),
    })

  // Nothing in use: the header says so; there is nothing to test or reset.
  if (view.source === 'none') {
    return (
      <Card
        title="In use"
        description="No AI provider is configured: AI features are off until you save one here or set STRATUM_AI_PROVIDER."
        actions={<Badge tone={badge.tone}>{badge.label}</Badge>}
      />
    )
  }

  return (
    <Card
      title="In use"
      description="Every AI feature of this installation uses this model."
      actions={<Badge tone={badge.tone}>{badge.label}</Badge>}
      footer={
        <div className="row-wrap ai-settings-actions">
          {view.source === 'saved' ? (
            <Button variant="ghost" onClick={() => setConfirming(true)}>
              Reset to environment defaults
            </Button>
          ) : null}
          <span className="spacer" />
          <Button onClick={onTest} loading={test.isPending}>
            Test
          </Button>
        </div>
      }
    >
      <div className="stack">
        {view.settings ? <Summary settings={view.settings} /> : null}
        {outcome ? (
          <Alert live tone={outcome.ok ? 'success' : 'danger'} title={outcome.ok ? `${outcome.model} answered` : `${outcome.model} failed`}>
            {outcome.message}
          </Alert>
        ) : null}
      </div>
      <Dialog
        open={confirming}
        onOpenChange={setConfirming}
        size="sm"
        title="Reset to environment defaults?"
        description={
          view.environment
            ? `The saved provider and its key are removed; ${AI_SETTINGS_PROVIDER_LABELS[view.environment.provider]} (${view.environment.model}) from the environment applies again.`
            : 'The saved provider and its key are removed. The environment sets no provider, so AI features turn off.'
        }
        footer={
          <>
            <Button onClick={() => setConfirming(false)}>Cancel</Button>
            <Button variant="danger" loading={reset.isPending} onClick={onReset}>
              Reset
            </Button>
          </>
        }
      />
    </Card>
  )
}
