import type { ContentItem } from '@stratum/contracts'
import { Download, Ellipsis, FileCode, FolderInput, Lock, Pencil, Star, Trash2, Users } from 'lucide-react'
import { NavLink } from 'react-router'
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuSeparator, DropdownMenuTrigger } from '../../components/ui/DropdownMenu'
import { useDraft } from './drafts'

export type SnippetAction = 'rename' | 'favorite' | 'share' | 'move' | 'download' | 'delete'

interface SnippetRowProps {
  projectRef: string
  snippet: ContentItem
  /** Whether the user may change it (save permission, and their own or a shared one). */
  editable: boolean
  onAction: (action: SnippetAction, snippet: ContentItem) => void
}

export function SnippetRow({ projectRef, snippet, editable, onAction }: SnippetRowProps) {
  const { saveState } = useDraft(projectRef, snippet.id)
  const shared = snippet.visibility !== 'user'
  return (
    <li>
      <div className="explorer-row">
        <NavLink to={`/project/${projectRef}/sql/${snippet.id}`} className="explorer-link">
          <FileCode size={14} aria-hidden="true" />
          <span className="explorer-name">{snippet.name}</span>
          {snippet.favorite ? <Star size={12} className="explorer-star" aria-label="Favorite" /> : null}
          {saveState !== 'IDLE' ? <span className={`save-dot save-dot-${saveState.toLowerCase()}`} aria-hidden="true" /> : null}
        </NavLink>
        <DropdownMenu>
          <DropdownMenuTrigger className="btn btn-ghost btn-sm btn-icon explorer-more" aria-label={`Actions for ${snippet.name}`}>
            <Ellipsis size={14} aria-hidden="true" />
          </DropdownMenuTrigger>
          <DropdownMenuContent>
            {editable ? (
              <>
                <DropdownMenuItem icon={<Pencil size={14} />} onSelect={() => onAction('rename', snippet)}>
                  Rename query
                </DropdownMenuItem>
                <DropdownMenuItem icon={<Star size={14} />} onSelect={() => onAction('favorite', snippet)}>
                  {snippet.favorite ? 'Remove from favorites' : 'Add to favorites'}
                </DropdownMenuItem>
                <DropdownMenuItem icon={shared ? <Lock size={14} /> : <Users size={14} />} onSelect={() => onAction('share', snippet)}>
                  {shared ? 'Unshare query' : 'Share query with project'}
                </DropdownMenuItem>
                {!shared ? (
                  <DropdownMenuItem icon={<FolderInput size={14} />} onSelect={() => onAction('move', snippet)}>
                    Move query
                  </DropdownMenuItem>
                ) : null}
              </>
            ) : null}
            <DropdownMenuItem icon={<Download size={14} />} onSelect={() => onAction('download', snippet)}>
              Download as .sql
            </DropdownMenuItem>
            {editable ? (
              <>
                <DropdownMenuSeparator />
                <DropdownMenuItem icon={<Trash2 size={14} />} onSelect={() => onAction('delete', snippet)}>
                  Delete query
                </DropdownMenuItem>
              </>
            ) : null}
          </DropdownMenuContent>
        </DropdownMenu>
      </div>
    </li>
  )
}
