import { API_KEY_TEXTS } from '@stratum/contracts'
import type { UseQueryResult } from '@tanstack/react-query'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { useToast } from '../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { useToggleLegacyApiKeys } from '../../data/api-keys/useToggleLegacyApiKeys'

interface LegacyKeysCardProps {
  projectRef: string
  legacy: UseQueryResult<{ enabled: boolean }>
  canWriteSecrets: boolean
}

/** Disable or re-enable the JWT-based (legacy) anon and service_role keys, each through a typed confirmation. */
export function LegacyKeysCard({ projectRef, legacy, canWriteSecrets }: LegacyKeysCardProps) {
  const toast = useToast()
  const [confirming, setConfirming] = useState(false)
  const toggle = useToggleLegacyApiKeys()
  const enabled = legacy.data?.enabled
  const word = enabled ? 'disable' : 're-enable'
  const action = enabled ? 'Disable JWT-based API keys' : 'Re-enable JWT-based API keys'

  const confirm = () =>
    toggle.mutate(
      { ref: projectRef, enabled: !enabled },
      {
        onSuccess: (result) => {
          setConfirming(false)
          toast.success(result.enabled ? API_KEY_TEXTS.legacyReenabled : API_KEY_TEXTS.legacyDisabled)
        },
        onError: (error) => toast.error(`Failed to ${word} JWT-based API keys: ${errorMessage(error)}`),
      },
    )

  return (
    <Card
      title="JWT-based API keys"
      description="The anon and service_role keys above. Disable them to refuse every request made with them; re-enable them at any time."
      actions={
        enabled === undefined ? null : (
          <Badge tone={enabled ? 'success' : 'warning'} data-testid="legacy-keys-status">
            {enabled ? 'Enabled' : 'Disabled'}
          </Badge>
        )
      }
    >
      {legacy.isError ? (
        <Alert tone="danger" title={API_KEY_TEXTS.fetchKeysFailed}>
          {errorMessage(legacy.error)}
        </Alert>
      ) : null}
      {enabled !== undefined ? (
        <div className="api-row">
          <div className="api-row-text">
            <span className="muted">
              {enabled
                ? 'Requests made with the anon or service_role key are accepted.'
                : 'Requests made with the anon or service_role key are refused.'}
            </span>
          </div>
          <Button
            variant={enabled ? 'danger' : 'primary'}
            disabled={!canWriteSecrets}
            disabledReason={API_KEY_TEXTS.noPermissionLegacyToggle}
            onClick={() => setConfirming(true)}
          >
            {action}
          </Button>
        </div>
      ) : null}
      <TypedConfirmationDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={action}
        description={
          enabled
            ? 'Every request made with the anon or service_role key will be refused until the keys are re-enabled.'
            : 'Requests made with the anon and service_role keys will be accepted again.'
        }
        confirmString={word}
        confirmButton={action}
        variant={enabled ? 'danger' : 'primary'}
        loading={toggle.isPending}
        onConfirm={confirm}
      />
    </Card>
  )
}
