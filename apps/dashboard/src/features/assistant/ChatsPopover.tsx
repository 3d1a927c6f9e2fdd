import { ASSISTANT_CHAT_LIST_SCROLL_ABOVE, ASSISTANT_CHAT_NAME_MAX, type ChatSummary } from '@stratum/contracts'
import { Check, ChevronDown, Pencil, Plus, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { IconButton } from '../../components/ui/Button'
import { Popover, PopoverContent, PopoverTrigger } from '../../components/ui/Popover'

interface ChatsPopoverProps {
  chats: ChatSummary[]
  currentId: string | null
  currentName: string
  onSelect: (id: string) => void
  onNew: () => void
  onRename: (id: string, name: string) => void
  onDelete: (id: string) => void
}

/** Enter saves, Escape cancels, leaving the field saves when the text is not blank (the spec's rename states). */
function RenameField({ initial, onSave, onCancel }: { initial: string; onSave: (name: string) => void; onCancel: () => void }) {
  const [value, setValue] = useState(initial)
  const finish = () => (value.trim() ? onSave(value.trim()) : onCancel())
  return (
    <input
      className="assistant-chat-rename"
      aria-label="Chat name"
      value={value}
      maxLength={ASSISTANT_CHAT_NAME_MAX}
      autoFocus
      onChange={(event) => setValue(event.target.value)}
      onKeyDown={(event) => {
        if (event.key === 'Enter') {
          event.preventDefault()
          finish()
        } else if (event.key === 'Escape') {
          event.preventDefault()
          onCancel()
        }
      }}
      onBlur={finish}
    />
  )
}

/** The chat list of the header: search, switch, new chat, rename, delete (only while another chat is left). */
export function ChatsPopover({ chats, currentId, currentName, onSelect, onNew, onRename, onDelete }: ChatsPopoverProps) {
  const [open, setOpen] = useState(false)
  const [search, setSearch] = useState('')
  const [editing, setEditing] = useState<string | null>(null)
  const shown = chats.filter((chat) => chat.name.toLowerCase().includes(search.trim().toLowerCase()))
  const scrolls = chats.length > ASSISTANT_CHAT_LIST_SCROLL_ABOVE

  return (
    <Popover
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (!next) {
          setEditing(null)
          setSearch('')
        }
      }}
    >
      <PopoverTrigger className="btn btn-ghost btn-sm assistant-chat-trigger" aria-label={`Chats: ${currentName}`}>
        <span className="assistant-chat-trigger-name">{currentName}</span>
        <ChevronDown size={14} aria-hidden="true" />
      </PopoverTrigger>
      <PopoverContent
        align="start"
        className="assistant-chats"
        aria-label="Chats"
        // Escape while renaming ends the rename only (the field cancels it); the list stays open.
        onEscapeKeyDown={(event) => {
          if (editing) event.preventDefault()
        }}
      >
        <input
          className="assistant-chat-search"
          type="search"
          placeholder="Search chats…"
          aria-label="Search chats"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <ul className={`assistant-chat-list${scrolls ? ' assistant-chat-list-scroll' : ''}`} data-scrolls={scrolls} data-testid="assistant-chat-list">
          {shown.map((chat) => (
            <li key={chat.id} className={`assistant-chat-item${chat.id === currentId ? ' is-current' : ''}`}>
              {editing === chat.id ? (
                <RenameField
                  initial={chat.name}
                  onSave={(name) => {
                    setEditing(null)
                    if (name !== chat.name) onRename(chat.id, name)
                  }}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <button
                  type="button"
                  className="assistant-chat-select"
                  onClick={() => {
                    onSelect(chat.id)
                    setOpen(false)
                  }}
                >
                  {chat.id === currentId ? <Check size={14} aria-hidden="true" /> : <span className="assistant-chat-spacer" />}
                  <span className="assistant-chat-name">{chat.name}</span>
                </button>
              )}
              {editing === chat.id ? null : (
                <span className="assistant-chat-actions">
                  <IconButton size="sm" label={`Rename ${chat.name}`} icon={<Pencil size={13} aria-hidden="true" />} onClick={() => setEditing(chat.id)} />
                  {chats.length > 1 ? (
                    <IconButton size="sm" label={`Delete ${chat.name}`} icon={<Trash2 size={13} aria-hidden="true" />} onClick={() => onDelete(chat.id)} />
                  ) : null}
                </span>
              )}
            </li>
          ))}
          {shown.length === 0 ? <li className="assistant-chat-empty">No chats match “{search.trim()}”</li> : null}
        </ul>
        <button
          type="button"
          className="assistant-chat-new"
          onClick={() => {
            onNew()
            setOpen(false)
          }}
        >
          <Plus size={14} aria-hidden="true" /> New chat
        </button>
      </PopoverContent>
    </Popover>
  )
}
