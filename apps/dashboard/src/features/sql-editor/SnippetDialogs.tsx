import type { ContentListItem, Folder } from '@stratum/contracts'
import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { SelectField, TextField } from '../../components/ui/Field'

export function RenameSnippetDialog({ snippet, onSave, onClose, saving }: { snippet: ContentListItem; onSave: (name: string) => void; onClose: () => void; saving: boolean }) {
  const [name, setName] = useState(snippet.name)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (name.trim()) onSave(name.trim())
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} size="sm" title="Rename query">
      <form onSubmit={submit} className="dialog-form">
        <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} autoFocus maxLength={256} />
        <div className="dialog-form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" loading={saving} disabled={!name.trim()}>
            Rename
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

export function MoveSnippetDialog({ snippet, folders, onMove, onClose, saving }: { snippet: ContentListItem; folders: Folder[]; onMove: (folderId: string | null) => void; onClose: () => void; saving: boolean }) {
  const [folderId, setFolderId] = useState(snippet.folder_id ?? '')
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} size="sm" title={`Move ${snippet.name}`}>
      <form
        className="dialog-form"
        onSubmit={(event) => {
          event.preventDefault()
          onMove(folderId || null)
        }}
      >
        <SelectField label="Folder" value={folderId} onChange={(e) => setFolderId(e.target.value)} autoFocus>
          <option value="">No folder</option>
          {folders.map((folder) => (
            <option key={folder.id} value={folder.id}>
              {folder.name}
            </option>
          ))}
        </SelectField>
        <div className="dialog-form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" loading={saving}>
            Move
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

export function ConfirmDeleteDialog({ title, description, onConfirm, onClose, busy }: { title: string; description: string; onConfirm: () => void; onClose: () => void; busy: boolean }) {
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      size="sm"
      title={title}
      description={description}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" onClick={onConfirm} loading={busy}>
            Delete
          </Button>
        </>
      }
    />
  )
}
