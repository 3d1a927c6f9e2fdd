import { CONTENT_NAME_MAX, CONTENT_TEXTS } from '@stratum/contracts'
import { useId, useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'

interface SaveSnippetDialogProps {
  saving: boolean
  onSave: (name: string) => void
  onClose: () => void
}

/** Names the new snippet; left empty, it is saved as 'Untitled query'. Mounted while open. */
export function SaveSnippetDialog({ saving, onSave, onClose }: SaveSnippetDialogProps) {
  const formId = useId()
  const [name, setName] = useState('')
  const submit = (event: FormEvent) => {
    event.preventDefault()
    onSave(name.trim() || CONTENT_TEXTS.defaultSnippetName)
  }
  return (
    <Dialog
      open
      onOpenChange={(next) => !next && onClose()}
      size="sm"
      title="Save as snippet"
      description="The query is saved to your private snippets in the SQL editor."
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" form={formId} variant="primary" loading={saving}>
            Save snippet
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit}>
        <TextField
          label="Name"
          value={name}
          placeholder={CONTENT_TEXTS.defaultSnippetName}
          onChange={(event) => setName(event.target.value)}
          maxLength={CONTENT_NAME_MAX}
          autoFocus
        />
      </form>
    </Dialog>
  )
}
