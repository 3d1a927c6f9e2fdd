import { Plus, RefreshCw } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { CopyField } from '../../components/ui/CopyField'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { useCan, useOrgPermissions } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useCreateSigningKey, useDeleteSigningKey, useUpdateSigningKey } from '../../data/signing-keys/useSigningKeyMutations'
import { useSigningKeys } from '../../data/signing-keys/useSigningKeys'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { CreateStandbyKeyDialog, type StandbyAlgorithm } from './CreateStandbyKeyDialog'
import { DeleteDialog, PublicJwkDialog, RevokeDialog, RotateDialog } from './KeyDialogs'
import { SigningKeysTable, type KeyActions } from './SigningKeysTable'
import { isLegacy, JWT_KEY_TEXTS, shortId, type SigningKey, type SigningKeyStatus } from './texts'
import './jwt-keys.css'

/** Newest change first: the key retired last leads the previously used ones. */
const byStatus = (keys: SigningKey[], status: SigningKeyStatus) =>
  keys.filter((key) => key.status === status).sort((a, b) => b.updated_at.localeCompare(a.updated_at))

/**
 * /project/{ref}/settings/jwt: the keys the auth service signs access tokens with. The current key signs; a standby
 * key is published ahead of its rotation; previously used keys still verify what they signed; revoked keys verify
 * nothing until deleted. The legacy JWT secret is one of them (HS256, never published or revoked). Every member reads
 * the list; changes need secrets.write, which the server checks again.
 */
export function JwtKeysPage() {
  useProjectPageTitle('JWT Keys')
  const { ref, project } = useCurrentProject()
  const toast = useToast()
  const orgSlug = project?.organization_slug
  const canWrite = useCan(orgSlug, 'secrets.write')
  const permissionsKnown = useOrgPermissions(orgSlug) !== undefined
  const keys = useSigningKeys(ref)
  const settings = useProjectSettings(ref)
  const create = useCreateSigningKey()
  const update = useUpdateSigningKey()
  const remove = useDeleteSigningKey()
  const [creating, setCreating] = useState(false)
  const [rotatingTo, setRotatingTo] = useState<SigningKey | null>(null)
  const [revoking, setRevoking] = useState<SigningKey | null>(null)
  const [deleting, setDeleting] = useState<SigningKey | null>(null)
  const [viewing, setViewing] = useState<SigningKey | null>(null)

  const all = useMemo(() => keys.data ?? [], [keys.data])
  const current = all.find((key) => key.status === 'in_use')
  const standby = byStatus(all, 'standby')
  const previous = byStatus(all, 'previously_used')
  const revoked = byStatus(all, 'revoked')
  const published = all.filter((key) => key.public_jwk && key.status !== 'revoked').length
  const changeReason = canWrite ? undefined : JWT_KEY_TEXTS.writePermission
  const movingId = update.isPending && update.variables?.status === 'standby' ? update.variables.id : null

  const setStatus = (key: SigningKey, status: SigningKeyStatus, done: string, failed: string, close: () => void) =>
    update.mutate(
      { ref, id: key.id, status },
      {
        onSuccess: () => {
          toast.success(done, `Key ${shortId(key)}`)
          close()
        },
        onError: (error) => toast.error(failed, errorMessage(error)),
      },
    )

  const actions: KeyActions = {
    onViewJwk: setViewing,
    onUse: setRotatingTo,
    onStandby: (key) => setStatus(key, 'standby', JWT_KEY_TEXTS.movedToStandby, JWT_KEY_TEXTS.standbyFailed, () => undefined),
    onRevoke: setRevoking,
    onDelete: setDeleting,
  }

  const createStandby = (algorithm: StandbyAlgorithm) =>
    create.mutate(
      { ref, body: { algorithm, status: 'standby' } },
      {
        onSuccess: (key) => {
          toast.success(JWT_KEY_TEXTS.created, `${key.algorithm} key ${shortId(key)}`)
          setCreating(false)
        },
      },
    )

  const table = (list: SigningKey[], label: string) => (
    <SigningKeysTable projectRef={ref} keys={list} label={label} changeReason={changeReason} busyId={movingId} {...actions} />
  )

  return (
    <div className="page">
      <PageHeader
        title="JWT Signing Keys"
        description="The keys the auth service signs user access tokens with, and the public keys your apps and services verify them with."
      />
      <div className="stack">
        {permissionsKnown && !canWrite ? (
          <Alert tone="info" live={false}>
            {JWT_KEY_TEXTS.writePermission}.
          </Alert>
        ) : null}
        {current && isLegacy(current) ? (
          <Alert tone="info" title="Access tokens are signed with the legacy JWT secret" live={false}>
            Anyone who holds the shared secret can verify tokens, and forge them. Create a standby ECC or RSA key and rotate to it: tokens are then
            signed with a private key that never leaves the platform, and verified with its public key from the JWKS URL.
          </Alert>
        ) : null}
        <Card title="Public keys" description="Where apps and services fetch the keys that verify access tokens: no API key needed.">
          {settings.data ? (
            <CopyField
              label="JWKS URL"
              value={`${projectApiUrl(settings.data)}/auth/v1/.well-known/jwks.json`}
              hint={`Lists the public keys of the current, standby and previously used keys (${published} now). The legacy JWT secret is never published.`}
            />
          ) : settings.isError ? (
            <Alert tone="danger" title="Could not load the project URL">
              {errorMessage(settings.error)}
            </Alert>
          ) : (
            <LoadingState label="Loading the project URL…" />
          )}
        </Card>
        <QueryState query={keys} loadingLabel="Loading signing keys…" errorTitle="Could not load the signing keys" isEmpty={false} empty={null}>
          <Card title="Current key" description="Signs every access token the auth service issues from now on." flush data-testid="current-key-card">
            {current ? table([current], 'Current key') : <p className="muted jwt-empty">No key is in use.</p>}
          </Card>
          <Card
            title="Standby key"
            description="Published in the JWKS before it signs anything, so verifiers know it ahead of the rotation."
            flush
            data-testid="standby-key-card"
            actions={
              standby[0] ? (
                <Button
                  variant="primary"
                  icon={<RefreshCw size={14} aria-hidden="true" />}
                  disabled={Boolean(changeReason)}
                  disabledReason={changeReason}
                  onClick={() => setRotatingTo(standby[0]!)}
                >
                  Rotate keys
                </Button>
              ) : (
                <Button
                  variant="primary"
                  icon={<Plus size={14} aria-hidden="true" />}
                  disabled={Boolean(changeReason)}
                  disabledReason={changeReason}
                  onClick={() => {
                    create.reset()
                    setCreating(true)
                  }}
                >
                  Create standby key
                </Button>
              )
            }
          >
            {standby.length ? table(standby, 'Standby keys') : <p className="muted jwt-empty">No standby key. Create one to prepare a rotation.</p>}
          </Card>
          <Card
            title="Previously used keys"
            description="No longer sign, but still verify the tokens they signed until those expire. Revoke a key to refuse them at once."
            flush
            data-testid="previous-keys-card"
          >
            {previous.length ? table(previous, 'Previously used keys') : <p className="muted jwt-empty">No previously used keys.</p>}
            {previous.some(isLegacy) ? <p className="muted jwt-empty jwt-note">{JWT_KEY_TEXTS.legacyNotRevocable}.</p> : null}
          </Card>
          <Card
            title="Revoked keys"
            description="Verify nothing: tokens they signed are refused. Delete them when you no longer need them listed."
            flush
            data-testid="revoked-keys-card"
          >
            {revoked.length ? table(revoked, 'Revoked keys') : <p className="muted jwt-empty">No revoked keys.</p>}
          </Card>
        </QueryState>
      </div>
      <CreateStandbyKeyDialog open={creating} pending={create.isPending} error={create.error} onClose={() => setCreating(false)} onCreate={createStandby} />
      <RotateDialog
        signingKey={rotatingTo}
        current={current}
        pending={update.isPending && update.variables?.status === 'in_use'}
        onClose={() => setRotatingTo(null)}
        onConfirm={(key) => setStatus(key, 'in_use', JWT_KEY_TEXTS.rotated, JWT_KEY_TEXTS.rotateFailed, () => setRotatingTo(null))}
      />
      <RevokeDialog
        signingKey={revoking}
        pending={update.isPending && update.variables?.status === 'revoked'}
        onClose={() => setRevoking(null)}
        onConfirm={(key) => setStatus(key, 'revoked', JWT_KEY_TEXTS.revoked, JWT_KEY_TEXTS.revokeFailed, () => setRevoking(null))}
      />
      <DeleteDialog
        signingKey={deleting}
        pending={remove.isPending}
        onClose={() => setDeleting(null)}
        onConfirm={(key) =>
          remove.mutate(
            { ref, id: key.id },
            {
              onSuccess: () => {
                toast.success(JWT_KEY_TEXTS.deleted, `Key ${shortId(key)}`)
                setDeleting(null)
              },
              onError: (error) => toast.error(JWT_KEY_TEXTS.deleteFailed, errorMessage(error)),
            },
          )
        }
      />
      <PublicJwkDialog signingKey={viewing} onClose={() => setViewing(null)} />
    </div>
  )
}
