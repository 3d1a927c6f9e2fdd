import { KeyRound, Plus, Search } from 'lucide-react'
import { useMemo, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { EmptyState } from '../../components/ui/EmptyState'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { useToast } from '../../components/ui/Toast'
import { TypedConfirmationDialog } from '../../components/ui/TypedConfirmationDialog'
import { errorMessage } from '../../data/api'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useRevealVaultSecret } from '../../data/vault/useRevealVaultSecret'
import { useCreateVaultSecret, useDeleteVaultSecret, useUpdateVaultSecret } from '../../data/vault/useVaultSecretMutations'
import { useVaultSecrets } from '../../data/vault/useVaultSecrets'
import type { VaultSecret, VaultSecretInput } from '../../data/vault/vaultSql'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { SecretDialog } from './SecretDialog'
import { SecretsTable } from './SecretsTable'
import { VAULT_TEXTS } from './texts'
import './vault.css'

const matches = (secret: VaultSecret, search: string) => {
  const needle = search.trim().toLowerCase()
  return !needle || (secret.name ?? '').toLowerCase().includes(needle) || secret.description.toLowerCase().includes(needle) || secret.id.includes(needle)
}

/**
 * /project/{ref}/settings/vault: Supabase Vault's secrets (vault.secrets), listed without their values; a value is
 * revealed on request from vault.decrypted_secrets. Read-only members see the list only: revealing and changing run
 * on the full connection, which the server refuses them.
 */
export function VaultSecretsPage() {
  useProjectPageTitle('Vault')
  const { ref, project } = useCurrentProject()
  const toast = useToast()
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const running = project?.status === 'ACTIVE_HEALTHY'
  const secrets = useVaultSecrets(running ? ref : undefined)
  const create = useCreateVaultSecret()
  const update = useUpdateVaultSecret()
  const remove = useDeleteVaultSecret()
  const reveal = useRevealVaultSecret()
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<VaultSecret | 'new' | null>(null)
  const [deleting, setDeleting] = useState<VaultSecret | null>(null)
  const [revealed, setRevealed] = useState<ReadonlyMap<string, string>>(new Map())

  const all = useMemo(() => secrets.data ?? [], [secrets.data])
  const shown = useMemo(() => all.filter((secret) => matches(secret, search)), [all, search])
  const changeReason = !running ? VAULT_TEXTS.notRunning : canWrite ? undefined : VAULT_TEXTS.writePermission
  const revealReason = !running ? VAULT_TEXTS.notRunning : canWrite ? undefined : VAULT_TEXTS.revealPermission
  const saving = editing === 'new' ? create : update

  const setValue = (id: string, value: string | undefined) =>
    setRevealed((current) => {
      const next = new Map(current)
      if (value === undefined) next.delete(id)
      else next.set(id, value)
      return next
    })

  const startEdit = (target: VaultSecret | 'new') => {
    create.reset()
    update.reset()
    setEditing(target)
  }

  const save = (input: VaultSecretInput) => {
    if (editing === null) return
    if (editing === 'new') {
      create.mutate(
        { ref, input },
        {
          onSuccess: () => {
            toast.success(VAULT_TEXTS.added)
            setEditing(null)
          },
        },
      )
      return
    }
    const id = editing.id
    update.mutate(
      { ref, id, input },
      {
        onSuccess: () => {
          // A value shown before the change would be stale.
          setValue(id, undefined)
          toast.success(VAULT_TEXTS.updated)
          setEditing(null)
        },
      },
    )
  }

  return (
    <div className="page">
      <PageHeader
        title="Vault"
        description="Secrets stored encrypted in your database, for SQL to use (vault.decrypted_secrets). The key stays with the platform: backups and copies of the database hold ciphertext only."
        actions={
          <Button variant="primary" icon={<Plus size={14} aria-hidden="true" />} disabled={Boolean(changeReason)} disabledReason={changeReason} onClick={() => startEdit('new')}>
            Add new secret
          </Button>
        }
      />
      <div className="stack">
        {!running && project ? <Alert tone="warning">{VAULT_TEXTS.notRunning}</Alert> : null}
        {running && !canWrite && project ? (
          <Alert tone="info" live={false}>
            {VAULT_TEXTS.revealPermission}
          </Alert>
        ) : null}
        <div className="vault-toolbar">
          <div className="input-wrap vault-search">
            <Search size={14} aria-hidden="true" className="vault-search-icon" />
            <input className="input" type="search" aria-label="Search for a secret" placeholder="Search for a secret" value={search} onChange={(event) => setSearch(event.target.value)} />
          </div>
          {secrets.data ? <span className="muted vault-count">{all.length === 1 ? '1 secret' : `${all.length} secrets`}</span> : null}
        </div>
        {running ? (
          <QueryState
            query={secrets}
            loadingLabel="Loading secrets…"
            errorTitle="Could not load the secrets"
            isEmpty={shown.length === 0}
            empty={
              <Card>
                <EmptyState
                  icon={<KeyRound size={22} />}
                  title={search.trim() ? 'No secret matches your search' : 'No secrets yet'}
                  description={search.trim() ? `Nothing named or described like "${search.trim()}".` : 'Add a secret here, or in SQL with vault.create_secret().'}
                />
              </Card>
            }
          >
            <SecretsTable
              secrets={shown}
              changeReason={changeReason}
              revealReason={revealReason}
              revealed={revealed}
              revealing={reveal.isPending ? (reveal.variables?.id ?? null) : null}
              onReveal={(secret) =>
                reveal.mutate({ ref, id: secret.id }, { onSuccess: (value) => setValue(secret.id, value), onError: (error) => toast.error('Could not reveal the secret', errorMessage(error)) })
              }
              onHide={(secret) => setValue(secret.id, undefined)}
              onEdit={startEdit}
              onDelete={(secret) => {
                remove.reset()
                setDeleting(secret)
              }}
            />
          </QueryState>
        ) : null}
      </div>
      <SecretDialog
        open={editing !== null}
        secret={editing === 'new' ? null : editing}
        onClose={() => setEditing(null)}
        onSave={save}
        pending={saving.isPending}
        error={saving.error}
      />
      <TypedConfirmationDialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={`Delete secret ${deleting?.name ?? deleting?.id ?? ''}`}
        description="SQL that reads this secret from vault.decrypted_secrets will no longer find it. This cannot be undone."
        confirmString={deleting?.name ?? deleting?.id ?? ''}
        confirmButton="Delete secret"
        variant="danger"
        loading={remove.isPending}
        onConfirm={() => {
          if (!deleting) return
          const id = deleting.id
          remove.mutate(
            { ref, id },
            {
              onSuccess: () => {
                toast.success(VAULT_TEXTS.deleted)
                setValue(id, undefined)
                setDeleting(null)
              },
              onError: (error) => toast.error('Could not delete the secret', errorMessage(error)),
            },
          )
        }}
      />
    </div>
  )
}
