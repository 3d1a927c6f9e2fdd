import type { Folder } from '@stratum/contracts'
import { ChevronDown, ChevronRight, Ellipsis, Folder as FolderIcon, Pencil, Trash2 } from 'lucide-react'
import { useRef, useState, type ReactNode } from 'react'
import { DropdownMenuItem, LazyDropdownMenu } from '../../components/ui/DropdownMenu'

/** A folder's name being typed: Enter or leaving the field saves, Escape abandons. */
export function FolderNameInput({ initial, disabled, onSubmit, onCancel }: { initial: string; disabled: boolean; onSubmit: (name: string) => void; onCancel: () => void }) {
  const [name, setName] = useState(initial)
  // Enter saves, and disabling the field while saving then fires blur: answer only the first.
  const finished = useRef(false)
  const done = () => {
    if (finished.current) return
    finished.current = true
    if (name.trim()) onSubmit(name.trim())
    else onCancel()
  }
  return (
    <div className="explorer-row explorer-folder" data-state={disabled ? 'saving' : 'editing'}>
      <FolderIcon size={14} aria-hidden="true" />
      <input
        className="explorer-input"
        aria-label="Folder name"
        value={name}
        disabled={disabled}
        autoFocus
        maxLength={256}
        onChange={(e) => setName(e.target.value)}
        onBlur={done}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            done()
          } else if (e.key === 'Escape') {
            e.preventDefault()
            finished.current = true
            onCancel()
          }
        }}
      />
    </div>
  )
}

interface FolderRowProps {
  folder: Folder
  editable: boolean
  saving: boolean
  children: ReactNode
  onRename: (name: string) => void
  onDelete: () => void
}

/** A folder of private snippets; its children (the paged snippets) are rendered only while it is open. */
export function FolderRow({ folder, editable, saving, children, onRename, onDelete }: FolderRowProps) {
  const [open, setOpen] = useState(true)
  const [editing, setEditing] = useState(false)
  if (editing || saving) {
    return (
      <li>
        <FolderNameInput
          initial={folder.name}
          disabled={saving}
          onSubmit={(name) => {
            setEditing(false)
            if (name !== folder.name) onRename(name)
          }}
          onCancel={() => setEditing(false)}
        />
      </li>
    )
  }
  return (
    <li>
      <div className="explorer-row explorer-folder" data-state="idle">
        <button type="button" className="explorer-folder-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
          <FolderIcon size={14} aria-hidden="true" />
          <span className="explorer-name">{folder.name}</span>
        </button>
        {editable ? (
          <LazyDropdownMenu className="btn btn-ghost btn-sm btn-icon explorer-more" label={`Actions for folder ${folder.name}`} icon={<Ellipsis size={14} aria-hidden="true" />}>
            {() => (
              <>
                <DropdownMenuItem icon={<Pencil size={14} />} onSelect={() => setEditing(true)}>
                  Rename folder
                </DropdownMenuItem>
                <DropdownMenuItem icon={<Trash2 size={14} />} onSelect={onDelete}>
                  Delete folder
                </DropdownMenuItem>
              </>
            )}
          </LazyDropdownMenu>
        ) : null}
      </div>
      {open ? <ul className="explorer-list explorer-nested">{children}</ul> : null}
    </li>
  )
}
