import { Sparkles, SquareTerminal, X } from 'lucide-react'
import { IconButton } from '../../components/ui/Button'
import { modKeyLabel } from '../../lib/platform'

export type RightPanelKind = 'assistant' | 'editor'

const CONTENT: Record<RightPanelKind, { title: string; closeLabel: string; shortcut: string; text: string; later: string }> = {
  assistant: {
    title: 'AI assistant',
    closeLabel: 'Close AI assistant',
    shortcut: 'I',
    text: 'The AI assistant arrives in a later release. It will answer questions about this project, write and explain SQL, and run queries only after you approve them.',
    later: 'Nothing here works yet: there is no model connected to this Stratum server.',
  },
  editor: {
    title: 'SQL editor panel',
    closeLabel: 'Close editor panel',
    shortcut: 'E',
    text: 'The SQL editor panel arrives in a later release. It will let you write and run SQL beside any page of the project, and save queries as snippets.',
    later: 'Until then, connect with psql or any Postgres client using the connection details on the project home page.',
  },
}

interface SidePanelProps {
  kind: RightPanelKind
  onClose: () => void
}

/** The right panel: holds either the assistant or the editor panel. Both are placeholders for now. */
export function SidePanel({ kind, onClose }: SidePanelProps) {
  const content = CONTENT[kind]
  const Icon = kind === 'assistant' ? Sparkles : SquareTerminal
  return (
    <aside className="side-panel" aria-label={content.title} data-testid={`${kind}-panel`}>
      <div className="side-panel-header">
        <Icon size={16} aria-hidden="true" />
        <h2 className="side-panel-title">{content.title}</h2>
        <span className="spacer" />
        <IconButton size="sm" label={content.closeLabel} icon={<X size={16} aria-hidden="true" />} onClick={onClose} />
      </div>
      <div className="side-panel-body">
        <div className="side-panel-icon" aria-hidden="true">
          <Icon size={22} />
        </div>
        <p>{content.text}</p>
        <p className="muted">{content.later}</p>
        <p className="faint side-panel-shortcut">
          <kbd>{modKeyLabel}</kbd> <kbd>{content.shortcut}</kbd> opens and closes this panel.
        </p>
      </div>
    </aside>
  )
}
