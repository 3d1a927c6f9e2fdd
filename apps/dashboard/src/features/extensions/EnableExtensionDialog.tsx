import { DEFAULT_EXTENSION_SCHEMA, type Extension } from '@stratum/contracts'
import { useId, useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'
import { errorMessage } from '../../data/api'

interface EnableExtensionDialogProps {
  /** The extension to enable; the dialog is open while it is set. */
  extension: Extension | null
  onClose: () => void
  onEnable: (schema: string | undefined) => void
  pending: boolean
  error: unknown
}

/** Asks where the extension goes (the `extensions` schema unless its control file fixes one), then enables it. */
export function EnableExtensionDialog({ extension, onClose, onEnable, pending, error }: EnableExtensionDialogProps) {
  const formId = useId()
  return (
    <Dialog
      open={extension !== null}
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={`Enable ${extension?.name ?? ''}`}
      size="sm"
      footer={
        <>
          <Button onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" form={formId} variant="primary" loading={pending}>
            Enable extension
          </Button>
        </>
      }
    >
      {/* Keyed by the extension: the form starts afresh each time the dialog opens. */}
      {extension ? <EnableForm key={extension.name} formId={formId} extension={extension} onEnable={onEnable} error={error} /> : null}
    </Dialog>
  )
}

interface EnableFormProps {
  formId: string
  extension: Extension
  onEnable: (schema: string | undefined) => void
  error: unknown
}

function EnableForm({ formId, extension, onEnable, error }: EnableFormProps) {
  const fixed = extension.required_schema
  const [schema, setSchema] = useState(fixed ?? DEFAULT_EXTENSION_SCHEMA)
  const [invalid, setInvalid] = useState<string | undefined>()

  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (fixed) return onEnable(undefined)
    if (!schema.trim()) return setInvalid('Enter the schema to create the extension in')
    setInvalid(undefined)
    onEnable(schema.trim())
  }

  return (
    <form id={formId} className="stack" onSubmit={submit} noValidate>
      {extension.comment ? <p className="muted extensions-dialog-text">{extension.comment}</p> : null}
      <TextField
        label="Schema"
        value={schema}
        onChange={(event) => setSchema(event.target.value)}
        readOnly={Boolean(fixed)}
        error={invalid}
        hint={
          fixed
            ? `${extension.name} always lives in ${fixed}.`
            : 'Its functions and types are created in this schema. It must exist, and the postgres role must be able to create objects in it.'
        }
        autoComplete="off"
        spellCheck={false}
        list={fixed ? undefined : `${formId}-schemas`}
      />
      {fixed ? null : (
        <datalist id={`${formId}-schemas`}>
          <option value={DEFAULT_EXTENSION_SCHEMA} />
          <option value="public" />
        </datalist>
      )}
      <p className="muted extensions-dialog-text">Extensions it requires are enabled with it.</p>
      {error ? <Alert tone="danger">{errorMessage(error)}</Alert> : null}
    </form>
  )
}
