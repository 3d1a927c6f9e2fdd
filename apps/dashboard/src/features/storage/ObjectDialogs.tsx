import { useState, type FormEvent } from 'react'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { useCreateFolder, useDeleteObjects, useMoveObject } from '../../data/storage/objects'
import { checkObjectPath, joinPath } from './objectPaths'

interface Common {
  projectRef: string
  bucket: string
  onClose: () => void
}

/** A new folder inside the open one (kept by a placeholder object until files arrive). */
export function NewFolderDialog({ projectRef, bucket, folder, onClose, onCreated }: Common & { folder: string; onCreated: (path: string) => void }) {
  const toast = useToast()
  const create = useCreateFolder()
  const [name, setName] = useState('')
  const [touched, setTouched] = useState(false)
  const problem = checkObjectPath(name)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    setTouched(true)
    if (problem) return
    const path = joinPath(folder, name.trim())
    create.mutate(
      { ref: projectRef, bucket, path },
      {
        onSuccess: () => {
          onClose()
          onCreated(path)
        },
        onError: (error) => toast.error('Could not create the folder', errorMessage(error)),
      },
    )
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} size="sm" title="New folder" description={folder ? `Inside ${folder}` : `At the top of ${bucket}`}>
      <form onSubmit={submit} className="dialog-form">
        <TextField
          label="Folder name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onBlur={() => setTouched(true)}
          error={touched ? (problem ?? undefined) : undefined}
          autoFocus
          maxLength={200}
        />
        <div className="dialog-form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" loading={create.isPending}>
            Create folder
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

/** Renames a file or moves it to another folder of the bucket: its full new path. */
export function MoveObjectDialog({ projectRef, bucket, path, onClose, onMoved }: Common & { path: string; onMoved: () => void }) {
  const toast = useToast()
  const move = useMoveObject()
  const [target, setTarget] = useState(path)
  const problem = checkObjectPath(target)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (problem || target.trim() === path) return
    move.mutate(
      { ref: projectRef, bucket, from: path, to: target.trim() },
      {
        onSuccess: () => {
          toast.success('File moved', target.trim())
          onMoved()
          onClose()
        },
        onError: (error) => toast.error('Could not move the file', errorMessage(error)),
      },
    )
  }
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} size="sm" title="Move file" description={path}>
      <form onSubmit={submit} className="dialog-form">
        <TextField
          label="New path"
          hint="Folders are separated by /"
          value={target}
          onChange={(e) => setTarget(e.target.value)}
          error={problem ?? undefined}
          autoFocus
          maxLength={1024}
        />
        <div className="dialog-form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" loading={move.isPending} disabled={Boolean(problem) || target.trim() === path}>
            Move
          </Button>
        </div>
      </form>
    </Dialog>
  )
}

export function DeleteObjectDialog({ projectRef, bucket, path, onClose, onDeleted }: Common & { path: string; onDeleted: () => void }) {
  const toast = useToast()
  const remove = useDeleteObjects()
  const confirm = () =>
    remove.mutate(
      { ref: projectRef, bucket, paths: [path] },
      {
        onSuccess: () => {
          toast.success('File deleted', path)
          onDeleted()
          onClose()
        },
        onError: (error) => toast.error('Could not delete the file', errorMessage(error)),
      },
    )
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      size="sm"
      title="Delete file"
      description={`${path} will be deleted from ${bucket}. This cannot be undone.`}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="danger" loading={remove.isPending} onClick={confirm}>
            Delete file
          </Button>
        </>
      }
    />
  )
}
