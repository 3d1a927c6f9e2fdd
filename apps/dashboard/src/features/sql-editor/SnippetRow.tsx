import type { ContentListItem } from '@stratum/contracts'
import { Copy, Download, Ellipsis, FileCode, FolderInput, Lock, Pencil, Star, Trash2, Users } from 'lucide-react'
import { memo, useEffect, useRef, type ReactNode } from 'react'
import { NavLink } from 'react-router'
import { Button } from '../../components/ui/Button'
import { DropdownMenuItem, DropdownMenuSeparator, LazyDropdownMenu } from '../../components/ui/DropdownMenu'
import { Spinner } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { listedSnippets, type useSnippetList } from '../../data/content/useSnippetList'
import { useDraft } from './drafts'

export type SnippetAction = 'rename' | 'favorite' | 'share' | 'move' | 'download' | 'delete' | 'duplicate'

/** What the server lets the user do to a snippet (content/store.ts), so that the menu offers nothing that would be refused. */
export interface SnippetRights {
  /** Rename, share or unshare, delete: its owner, or for a shared one a role that may update the project. */
  change: boolean
  /** Into a folder: the owner's private snippets only (folders are their owner's). */
  move: boolean
  /** A private copy of one's own: any member who may save snippets. */
  duplicate: boolean
}

interface SnippetRowProps {
  projectRef: string
  /** As listed: folder listings leave out the content. */
  snippet: ContentListItem
  rights: SnippetRights
  onAction: (action: SnippetAction, snippet: ContentListItem) => void
}

/**
 * One snippet of the explorer. Its menu is mounted on first opening: lists hold hundreds of rows. Favorites are each
 * member's own, so every member may star what they see.
 */
export const SnippetRow = memo(function SnippetRow({ projectRef, snippet, rights, onAction }: SnippetRowProps) {
  const { saveState } = useDraft(projectRef, snippet.id)
  const shared = snippet.visibility !== 'user'
  const editable = rights.change
  return (
    <li>
      <div className="explorer-row">
        <NavLink to={`/project/${projectRef}/sql/${snippet.id}`} className="explorer-link">
          <FileCode size={14} aria-hidden="true" />
          <span className="explorer-name">{snippet.name}</span>
          {snippet.favorite ? <Star size={12} className="explorer-star" aria-label="Favorite" /> : null}
          {saveState !== 'IDLE' ? <span className={`save-dot save-dot-${saveState.toLowerCase()}`} aria-hidden="true" /> : null}
        </NavLink>
        <LazyDropdownMenu className="btn btn-ghost btn-sm btn-icon explorer-more" label={`Actions for ${snippet.name}`} icon={<Ellipsis size={14} aria-hidden="true" />}>
          {() => (
            <>
              {editable ? (
                <DropdownMenuItem icon={<Pencil size={14} />} onSelect={() => onAction('rename', snippet)}>
                  Rename query
                </DropdownMenuItem>
              ) : null}
              <DropdownMenuItem icon={<Star size={14} />} onSelect={() => onAction('favorite', snippet)}>
                {snippet.favorite ? 'Remove from favorites' : 'Add to favorites'}
              </DropdownMenuItem>
              {editable ? (
                <DropdownMenuItem icon={shared ? <Lock size={14} /> : <Users size={14} />} onSelect={() => onAction('share', snippet)}>
                  {shared ? 'Unshare query' : 'Share query with project'}
                </DropdownMenuItem>
              ) : null}
              {rights.move && !shared ? (
                <DropdownMenuItem icon={<FolderInput size={14} />} onSelect={() => onAction('move', snippet)}>
                  Move query
                </DropdownMenuItem>
              ) : null}
              {rights.duplicate ? (
                <DropdownMenuItem icon={<Copy size={14} />} onSelect={() => onAction('duplicate', snippet)}>
                  {editable ? 'Duplicate query' : 'Duplicate to my queries'}
                </DropdownMenuItem>
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
            </>
          )}
        </LazyDropdownMenu>
      </div>
    </li>
  )
})

type SnippetList = ReturnType<typeof useSnippetList>
export type RenderRow = (snippet: ContentListItem) => ReactNode

/** The loaded pages of a section, then what loads the next one. */
export function SectionRows({ list, row, what, empty }: { list: SnippetList; row: RenderRow; what: string; empty?: string }) {
  if (list.isPending)
    return (
      <li className="explorer-empty">
        <Spinner size={14} /> Loading queries…
      </li>
    )
  if (!list.data)
    return (
      <li className="explorer-empty">
        <span role="alert">Failed to load queries: {errorMessage(list.error)}</span>
      </li>
    )
  const snippets = listedSnippets(list.data)
  return (
    <>
      {snippets.map(row)}
      {!snippets.length && empty ? <li className="explorer-empty">{empty}</li> : null}
      <LoadMore list={list} what={what} />
    </>
  )
}

/**
 * The end of a paged section: the next page loads when this comes near the explorer's visible
 * part (an IntersectionObserver), or on 'Load more' (keyboard users, a failed page: 'Try again').
 */
function LoadMore({ list, what }: { list: SnippetList; what: string }) {
  const sentinel = useRef<HTMLLIElement>(null)
  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list
  const waiting = hasNextPage && !isFetchingNextPage && !isFetchNextPageError
  useEffect(() => {
    const element = sentinel.current
    if (!element || !waiting || typeof IntersectionObserver === 'undefined') return
    // Observed within the explorer's scrolling box, a little ahead of its visible end.
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage()
      },
      { root: element.closest('.sql-explorer'), rootMargin: '0px 0px 160px 0px' },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [waiting, fetchNextPage])

  if (!hasNextPage) return null
  if (isFetchNextPageError)
    return (
      <li ref={sentinel} className="explorer-empty explorer-load-error">
        <span role="alert">
          Failed to load more {what}: {errorMessage(list.error)}
        </span>
        <Button size="sm" onClick={() => void fetchNextPage()}>
          Try again
        </Button>
      </li>
    )
  return (
    <li ref={sentinel} className="explorer-empty">
      {isFetchingNextPage ? (
        <>
          <Spinner size={14} /> Loading more {what}…
        </>
      ) : (
        <Button size="sm" variant="ghost" onClick={() => void fetchNextPage()}>
          Load more {what}
        </Button>
      )}
    </li>
  )
}
