import { API_KEY_TEXTS, type ProjectSettings } from '@stratum/contracts'
import type { UseQueryResult } from '@tanstack/react-query'
import { RefreshCw } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { LoadingState, Spinner } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { projectApiUrl } from '../../data/api-keys/useProjectSettings'
import { useUpdateJwtSecret } from '../../data/api-keys/useUpdateJwtSecret'
import { SecretField } from './SecretField'
import type { useJwtUpdate } from './useJwtUpdate'

export const SECRETS_WRITE_TEXT = 'You need additional permissions to update the JWT secret'

interface ProjectConfigCardProps {
  projectRef: string
  settings: UseQueryResult<ProjectSettings>
  canReadSecrets: boolean
  canWriteSecrets: boolean
  jwt: ReturnType<typeof useJwtUpdate>
}

/** 'Project Configuration': the API URL and the JWT secret, with its rotation. */
export function ProjectConfigCard({ projectRef, settings, canReadSecrets, canWriteSecrets, jwt }: ProjectConfigCardProps) {
  const toast = useToast()
  const [confirming, setConfirming] = useState(false)
  const updateSecret = useUpdateJwtSecret()
  const updating = jwt.state === 'updating'

  const generate = () =>
    updateSecret.mutate(
      { ref: projectRef },
      {
        onSuccess: () => setConfirming(false),
        onError: (error) => toast.error(API_KEY_TEXTS.updateFailed, errorMessage(error)),
      },
    )

  const rotateReason = !canWriteSecrets ? SECRETS_WRITE_TEXT : updating ? API_KEY_TEXTS.updating : undefined

  return (
    <Card title="Project Configuration" description="Where the project's API is reached, and the secret its keys are signed with.">
      {settings.isPending ? <LoadingState label="Loading configuration…" /> : null}
      {settings.isError ? (
        <Alert tone="danger" title={API_KEY_TEXTS.fetchConfigFailed}>
          {errorMessage(settings.error)}
        </Alert>
      ) : null}
      {settings.data ? (
        <>
          <CopyField label="URL" value={projectApiUrl(settings.data)} hint="The base URL of the project's REST API." />
          <SecretField
            label="JWT Secret"
            what="JWT secret"
            value={canReadSecrets ? settings.data.jwt_secret : undefined}
            deniedText={API_KEY_TEXTS.noPermissionKey}
            secret
            lockedReason={jwt.lockedReason}
            hint="Used to sign and verify the API keys and user tokens. Keep it secret."
            badges={<JwtStatusBadge state={jwt.state} />}
          />
          {updating ? (
            <p className="jwt-updating" role="status">
              <Spinner size={14} />
              {API_KEY_TEXTS.updating}
            </p>
          ) : null}
          {jwt.state === 'failed' ? (
            <Alert tone="danger" title={API_KEY_TEXTS.updateFailedKeys}>
              {jwt.update?.error ?? 'The previous secret is still in use.'}
            </Alert>
          ) : null}
          <div className="api-row">
            <div className="api-row-text">
              <strong>Generate a new secret</strong>
              <span className="muted">
                Signs new anon and service_role keys with a new random secret. Clients using the current keys stop working.
              </span>
            </div>
            <Button
              icon={<RefreshCw size={14} aria-hidden="true" />}
              disabled={Boolean(rotateReason)}
              disabledReason={rotateReason}
              onClick={() => setConfirming(true)}
            >
              Generate a new secret
            </Button>
          </div>
        </>
      ) : null}
      <TypedConfirmationDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Generate a new JWT secret"
        description="The project's API keys will be replaced by keys signed with the new secret."
        confirmString={projectRef}
        confirmButton="Generate a new secret"
        loading={updateSecret.isPending}
        onConfirm={generate}
      >
        <Alert tone="warning" title="This cannot be undone">
          Every app, server and user session using the current anon or service_role key, or a token signed with the current
          secret, stops working until it uses the new keys.
        </Alert>
      </TypedConfirmationDialog>
    </Card>
  )
}

function JwtStatusBadge({ state }: { state: ReturnType<typeof useJwtUpdate>['state'] }) {
  if (state === 'updating')
    return (
      <Badge tone="info" dot="pulse">
        Updating
      </Badge>
    )
  if (state === 'failed') return <Badge tone="danger">Update failed</Badge>
  return null
}
