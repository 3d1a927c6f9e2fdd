import { CreateApiKeyBody, type ApiKeyResponse } from '@stratum/contracts'
import { Eye, EyeOff, Plus, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Badge } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { CopyButton } from '../../components/ui/CopyButton'
import { Dialog } from '../../components/ui/Dialog'
import { SelectField, TextField } from '../../components/ui/Field'
import { QueryState } from '../../components/ui/QueryState'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { revealKey, useCreateNamedKey, useDeleteNamedKey, useNamedKeys } from '../../data/api-keys/namedKeys'

const WRITE_DENIED = 'You need additional permissions to change the API keys of this project'

interface NamedKeysCardProps {
  projectRef: string
  canReadSecrets: boolean
  canWriteSecrets: boolean
}

function KeyRow({ projectRef, apiKey, canWrite, onDelete }: { projectRef: string; apiKey: ApiKeyResponse; canWrite: boolean; onDelete: () => void }) {
  const toast = useToast()
  const [revealed, setRevealed] = useState<string | null>(null)
  const secret = apiKey.type === 'secret'
  const value = secret ? revealed : apiKey.api_key
  const toggle = async () => {
    if (revealed) return setRevealed(null)
    try {
      setRevealed((await revealKey(projectRef, apiKey.id!)).api_key)
    } catch (error) {
      toast.error(`Failed to reveal the key: ${errorMessage(error)}`)
    }
  }
  return (
    <li className="named-key">
      <div className="named-key-head">
        <span className="named-key-name mono">{apiKey.name}</span>
        <Badge tone={secret ? 'warning' : 'neutral'}>{secret ? 'Secret' : 'Publishable'}</Badge>
        {apiKey.description ? <span className="muted named-key-description">{apiKey.description}</span> : null}
      </div>
      <div className="copy-field-row">
        <input className="input copy-field-input mono" aria-label={`${apiKey.name} key`} value={value ?? apiKey.api_key ?? ''} readOnly />
        {secret ? (
          <IconButton
            size="sm"
            label={revealed ? `Hide ${apiKey.name}` : `Reveal ${apiKey.name}`}
            icon={revealed ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
            onClick={() => void toggle()}
          />
        ) : null}
        <CopyButton value={value ?? ''} what={`${apiKey.name} key`} disabledReason={value ? undefined : 'Reveal the key to copy it'} />
        <IconButton
          size="sm"
          label={`Delete ${apiKey.name}`}
          icon={<Trash2 size={14} aria-hidden="true" />}
          disabled={!canWrite}
          disabledReason={WRITE_DENIED}
          onClick={onDelete}
        />
      </div>
    </li>
  )
}

/**
 * Publishable keys (sb_publishable_..., for browsers and apps, act as anon with RLS) and secret keys
 * (sb_secret_..., for servers, act as service_role, refused from browsers), each made and deleted on its own.
 */
export function NamedKeysCard({ projectRef, canReadSecrets, canWriteSecrets }: NamedKeysCardProps) {
  const toast = useToast()
  const keys = useNamedKeys(projectRef)
  const create = useCreateNamedKey(projectRef)
  const remove = useDeleteNamedKey(projectRef)
  const [type, setType] = useState<'publishable' | 'secret'>('publishable')
  const [name, setName] = useState('')
  const [problem, setProblem] = useState<string>()
  const [deleting, setDeleting] = useState<ApiKeyResponse | null>(null)

  const submit = (event: FormEvent) => {
    event.preventDefault()
    const parsed = CreateApiKeyBody.safeParse({ type, name: name.trim() })
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message)
    setProblem(undefined)
    create.mutate(parsed.data, {
      onSuccess: (made) => {
        setName('')
        toast.success(`Created the ${made.type} key ${made.name}`)
      },
      onError: (error) => setProblem(errorMessage(error)),
    })
  }

  const list = keys.data ?? []
  return (
    <Card
      title="Publishable and secret API keys"
      description={
        canReadSecrets
          ? 'Publishable keys are safe in browsers and apps: they act as anon, so row level security applies. Secret keys act as service_role and bypass it: keep them on servers (they are refused from browsers).'
          : 'Publishable keys are safe in browsers and apps: they act as anon, so row level security applies. Secret keys are shown to owners and administrators only.'
      }
    >
      <QueryState query={keys} loadingLabel="Loading API keys…" errorTitle="Could not load the API keys" isEmpty={false} empty={null}>
        {list.length ? (
          <ul className="named-keys" aria-label="Publishable and secret API keys">
            {list.map((apiKey) => (
              <KeyRow key={apiKey.id} projectRef={projectRef} apiKey={apiKey} canWrite={canWriteSecrets} onDelete={() => setDeleting(apiKey)} />
            ))}
          </ul>
        ) : (
          <p className="muted">No publishable or secret keys yet: the legacy anon and service_role keys above still work.</p>
        )}
      </QueryState>
      {canWriteSecrets ? (
        <form className="named-key-form" onSubmit={submit} aria-label="New API key" noValidate>
          <SelectField label="Type" value={type} onChange={(event) => setType(event.target.value as 'publishable' | 'secret')}>
            <option value="publishable">Publishable</option>
            <option value="secret">Secret</option>
          </SelectField>
          <TextField label="Name" value={name} placeholder="web_app" maxLength={64} error={problem} onChange={(event) => setName(event.target.value)} />
          <Button type="submit" icon={<Plus size={14} aria-hidden="true" />} loading={create.isPending}>
            Create key
          </Button>
        </form>
      ) : null}
      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        size="sm"
        title={`Delete ${deleting?.name ?? ''}?`}
        description="Every request made with this key is refused from now on. This cannot be undone."
        footer={
          <>
            <Button onClick={() => setDeleting(null)}>Cancel</Button>
            <Button
              variant="danger"
              loading={remove.isPending}
              onClick={() =>
                deleting &&
                remove.mutate(deleting.id!, {
                  onSuccess: () => {
                    toast.success(`Deleted the key ${deleting.name}`)
                    setDeleting(null)
                  },
                  onError: (error) => toast.error(`Failed to delete the key: ${errorMessage(error)}`),
                })
              }
            >
              Delete key
            </Button>
          </>
        }
      />
    </Card>
  )
}
