import { API_KEY_TEXTS, type ProjectSettings } from '@stratum/contracts'
import type { UseQueryResult } from '@tanstack/react-query'
import { Alert } from '../../components/ui/Alert'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { apiKeyOf } from '../../data/api-keys/useProjectSettings'
import { useApiKeysLastUsed } from '../../data/api-keys/useApiKeysLastUsed'
import { formatDateTime } from '../../lib/format'
import { SecretField } from './SecretField'

interface ProjectApiKeysCardProps {
  projectRef: string
  settings: UseQueryResult<ProjectSettings>
  /** Undefined while the member's permissions load. */
  canReadSecrets: boolean | undefined
  lockedReason: string | undefined
  legacyDisabled: boolean
}

/**
 * 'Project API Keys': the anon (public) and service_role (secret) keys, and when they were last used. Without read on
 * service_api_keys neither key shows (the project shell spec's permission texts), though the server still gives the anon
 * key to every member for the REST health check, GraphiQL and the API docs' client key.
 */
export function ProjectApiKeysCard({ projectRef, settings, canReadSecrets, lockedReason, legacyDisabled }: ProjectApiKeysCardProps) {
  const lastUsed = useApiKeysLastUsed(projectRef)
  const anon = apiKeyOf(settings.data, 'anon')
  const service = apiKeyOf(settings.data, 'service_role')

  return (
    <Card
      title="Project API Keys"
      description="Requests to the project's API carry one of these keys. They are JWTs signed with the project's JWT secret."
    >
      {settings.isPending || (settings.data && canReadSecrets === undefined) ? <LoadingState label="Loading API keys…" /> : null}
      {settings.isError ? (
        <Alert tone="danger" title={API_KEY_TEXTS.fetchKeysFailed}>
          {errorMessage(settings.error)}
        </Alert>
      ) : null}
      {settings.data && canReadSecrets !== undefined ? (
        <>
          {!canReadSecrets ? <Alert tone="warning">{API_KEY_TEXTS.noPermissionPanel}</Alert> : null}
          {legacyDisabled ? (
            <Alert tone="warning" title="JWT-based API keys are disabled">
              Requests made with the anon and service_role keys are refused until they are re-enabled below.
            </Alert>
          ) : null}
          <SecretField
            label={<span className="mono">anon</span>}
            what="anon key"
            value={canReadSecrets ? anon : undefined}
            deniedText={API_KEY_TEXTS.noPermissionKey}
            lockedReason={lockedReason}
            badges={<Badge>public</Badge>}
            hint="Safe to use in a browser when Row Level Security is enabled on your tables and you have set up policies."
          />
          <SecretField
            label={<span className="mono">service_role</span>}
            what="service_role key"
            value={canReadSecrets ? service : undefined}
            deniedText={API_KEY_TEXTS.noPermissionKey}
            secret
            lockedReason={lockedReason}
            badges={<Badge tone="danger">secret</Badge>}
            hint="This key bypasses Row Level Security. Never share it publicly: use it only on servers you control."
          />
          <LastUsed query={lastUsed} />
        </>
      ) : null}
    </Card>
  )
}

function LastUsed({ query }: { query: ReturnType<typeof useApiKeysLastUsed> }) {
  if (query.isPending) return null
  const { anon, service_role: service } = query.data ?? { anon: null, service_role: null }
  // Null means no request with the key is known: no gateway logs them yet, so nothing can be told.
  if (query.isError || (anon === null && service === null)) {
    return (
      <p className="api-keys-last-used muted" data-testid="api-keys-last-used">
        {API_KEY_TEXTS.lastUsedFailed}
      </p>
    )
  }
  return (
    <p className="api-keys-last-used muted" data-testid="api-keys-last-used">
      anon last used {anon ? formatDateTime(anon) : 'not in the last 24 hours'}; service_role last used{' '}
      {service ? formatDateTime(service) : 'not in the last 24 hours'}.
    </p>
  )
}
