import { FunctionSecretName, FUNCTION_SECRET_LIMITS, type FunctionSecretResponse } from '@stratum/contracts'
import { ArrowLeft, KeyRound, Plus, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { Button, IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { Dialog } from '../../components/ui/Dialog'
import { EmptyState } from '../../components/ui/EmptyState'
import { TextField } from '../../components/ui/Field'
import { PageHeader } from '../../components/ui/PageHeader'
import { QueryState } from '../../components/ui/QueryState'
import { TableHead } from '../../components/ui/TableHead'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useDeleteFunctionSecrets } from '../../data/functions/useDeleteFunctionSecrets'
import { useFunctionSecrets } from '../../data/functions/useFunctionSecrets'
import { useSaveFunctionSecrets } from '../../data/functions/useSaveFunctionSecrets'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { formatDateTime } from '../../lib/format'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { FUNCTION_TEXTS } from './texts'
import './functions.css'

/** Adds a secret, or replaces the value of one with the same name. */
function AddSecretCard({ projectRef, canWrite }: { projectRef: string; canWrite: boolean }) {
  const toast = useToast()
  const save = useSaveFunctionSecrets()
  const [name, setName] = useState('')
  const [value, setValue] = useState('')
  const [nameError, setNameError] = useState<string>()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = FunctionSecretName.safeParse(name.trim())
    const problem = parsed.success ? undefined : parsed.error.issues[0]?.message
    setNameError(problem)
    if (problem) return
    save.mutate(
      { ref: projectRef, secrets: [{ name: name.trim(), value }] },
      {
        onSuccess: () => {
          toast.success(FUNCTION_TEXTS.secretSaved(name.trim()))
          setName('')
          setValue('')
        },
        onError: (error) => toast.error(FUNCTION_TEXTS.secretSaveFailed(errorMessage(error))),
      },
    )
  }

  return (
    <Card
      title="Add or replace a secret"
      description="Read in a function with Deno.env.get('NAME'). Saving restarts the project's functions, so their next request sees it."
      footer={
        <div className="form-actions">
          <Button
            type="submit"
            form="add-secret-form"
            variant="primary"
            icon={<Plus size={14} aria-hidden="true" />}
            loading={save.isPending}
            disabled={!canWrite}
            disabledReason={FUNCTION_TEXTS.secretsWritePermission}
          >
            Save secret
          </Button>
        </div>
      }
    >
      <form id="add-secret-form" className="fn-secret-form" onSubmit={submit} noValidate>
        <TextField
          label="Name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          error={nameError}
          placeholder="STRIPE_API_KEY"
          autoComplete="off"
          spellCheck={false}
          maxLength={FUNCTION_SECRET_LIMITS.maxNameLength}
        />
        <TextField
          label="Value"
          type="password"
          value={value}
          onChange={(event) => setValue(event.target.value)}
          autoComplete="new-password"
          maxLength={FUNCTION_SECRET_LIMITS.maxValueLength}
          hint="Stored encrypted; only its SHA-256 digest is shown afterwards."
        />
      </form>
    </Card>
  )
}

function SecretsTable({ secrets, onDelete, canWrite }: { secrets: FunctionSecretResponse[]; onDelete: (name: string) => void; canWrite: boolean }) {
  return (
    <Card flush>
      <table className="table" aria-label="Edge function secrets">
        <TableHead columns={['Name', 'Digest (SHA-256)', 'Updated', '']} />
        <tbody>
          {secrets.map((secret) => (
            <tr key={secret.name}>
              <td className="mono nowrap">{secret.name}</td>
              <td className="mono fn-digest" title={secret.value}>
                {secret.value}
              </td>
              <td className="nowrap">{secret.updated_at ? <time dateTime={secret.updated_at}>{formatDateTime(secret.updated_at)}</time> : null}</td>
              <td className="nowrap">
                <IconButton
                  label={`Delete secret ${secret.name}`}
                  icon={<Trash2 size={14} aria-hidden="true" />}
                  onClick={() => onDelete(secret.name)}
                  disabled={!canWrite}
                  disabledReason={FUNCTION_TEXTS.secretsWritePermission}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  )
}

/** /project/{ref}/functions/secrets: the project's function secrets (names and digests), add and delete. */
export function FunctionSecretsPage() {
  useProjectPageTitle('Secrets | Edge Functions')
  const { ref, project } = useCurrentProject()
  const canRead = useCan(project?.organization_slug, 'service_api_keys.read')
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const secrets = useFunctionSecrets(ref, canRead)
  const remove = useDeleteFunctionSecrets()
  const toast = useToast()
  const [deleting, setDeleting] = useState<string | null>(null)
  const list = secrets.data ?? []

  const confirmDelete = () => {
    if (!deleting) return
    const name = deleting
    remove.mutate(
      { ref, names: [name] },
      {
        onSuccess: () => {
          toast.success(FUNCTION_TEXTS.secretDeleted(name))
          setDeleting(null)
        },
        onError: (error) => toast.error(FUNCTION_TEXTS.secretDeleteFailed(errorMessage(error))),
      },
    )
  }

  return (
    <div className="page">
      <PageHeader
        eyebrow={
          <Link className="fn-back" to={`/project/${ref}/functions`}>
            <ArrowLeft size={14} aria-hidden="true" /> Edge Functions
          </Link>
        }
        title="Secrets"
        description="Environment variables of this project's edge functions, beside SUPABASE_URL, SUPABASE_ANON_KEY, SUPABASE_SERVICE_ROLE_KEY and SUPABASE_DB_URL."
      />
      <div className="stack">
        <AddSecretCard projectRef={ref} canWrite={canWrite} />
        {canRead ? (
          <QueryState
            query={secrets}
            loadingLabel="Loading secrets…"
            errorTitle="Could not load the secrets"
            isEmpty={list.length === 0}
            empty={
              <Card>
                <EmptyState icon={<KeyRound size={22} />} title="No secrets yet" description="Secrets you add appear here with the digest of their value." />
              </Card>
            }
          >
            <SecretsTable secrets={list} onDelete={setDeleting} canWrite={canWrite} />
          </QueryState>
        ) : (
          <Alert tone="info" live={false}>
            {FUNCTION_TEXTS.secretsReadPermission}
          </Alert>
        )}
      </div>
      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => (open ? undefined : setDeleting(null))}
        title={`Delete secret ${deleting ?? ''}`}
        description="Functions that read it get nothing from their next request on."
        size="sm"
        footer={
          <div className="form-actions">
            <Button onClick={() => setDeleting(null)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button variant="danger" onClick={confirmDelete} loading={remove.isPending}>
              Delete secret
            </Button>
          </div>
        }
      />
    </div>
  )
}
