import { ExplorerSearch } from './ExplorerSearch'
import type { ContentListItem, Folder } from '@stratum/contracts'
import { useQueryClient } from '@tanstack/react-query'
import { FolderPlus, Plus } from 'lucide-react'
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { IconButton } from '../../components/ui/Button'
import { useToast } from '../../components/ui/Toast'
import { errorMessage, isApiError } from '../../data/api'
import { contentKeys } from '../../data/content/keys'
import { allListed, knownSnippet } from '../../data/content/snippetCache'
import { FAVORITES, SHARED, folderSection, searchSection } from '../../data/content/snippetSection'
import { useDeleteSnippets } from '../../data/content/useDeleteSnippets'
import { useCreateFolder, useDeleteFolders, useUpdateFolder } from '../../data/content/useFolderMutations'
import { useFolders } from '../../data/content/useFolders'
import { useSaveSnippet, type SnippetChanges } from '../../data/content/useSaveSnippet'
import { useSnippetCounts } from '../../data/content/useSnippetCounts'
import { listedSnippets, useSnippetList } from '../../data/content/useSnippetList'
import { downloadText } from '../../lib/download'
import { forgetDraft } from './drafts'
import { forgetLastSnippet, readLastSnippet } from './lastSnippet'
import { FolderNameInput, FolderRow } from './FolderRow'
import { ConfirmDeleteDialog, MoveSnippetDialog, RenameSnippetDialog } from './SnippetDialogs'
import { SectionRows, SnippetRow, type RenderRow, type SnippetAction } from './SnippetRow'
import { snippetSql } from './useDuplicateSnippet'

/** The temporary id of a folder being created (the SQL editor spec's folders). */
export const NEW_FOLDER_ID = 'new-folder'

interface SnippetExplorerProps {
  projectRef: string
  userId: string | undefined
  canSave: boolean
  /** projects.update: may rename, unshare or delete the shared snippets of others (the server's rule). */
  canUpdateProject: boolean
  currentId: string | undefined
  onNewQuery: () => void
  onDuplicate: (snippet: ContentListItem) => void
}

/** How long typing in the search box pauses before the server is asked. */
const SEARCH_DEBOUNCE_MS = 250

type Pending = { kind: 'rename' | 'move' | 'delete'; snippet: ContentListItem } | { kind: 'delete-folder'; folder: Folder } | null

/**
 * Snippets on the left of the editor: favorites, shared, private with folders, and their actions.
 * Each section is listed a page at a time (more as the user scrolls to its end); the counts in the
 * titles are the server's (GET /content/count), whatever is loaded.
 */
export function SnippetExplorer({ projectRef, userId, canSave, canUpdateProject, currentId, onNewQuery, onDuplicate }: SnippetExplorerProps) {
  const toast = useToast()
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const counts = useSnippetCounts(projectRef)
  const favorites = useSnippetList(projectRef, FAVORITES)
  const shared = useSnippetList(projectRef, SHARED)
  const loose = useSnippetList(projectRef, folderSection(null))
  const folders = useFolders(projectRef)
  const saveSnippet = useSaveSnippet()
  const deleteSnippets = useDeleteSnippets()
  const createFolder = useCreateFolder()
  const updateFolder = useUpdateFolder()
  const deleteFolders = useDeleteFolders()
  const [newFolder, setNewFolder] = useState<'editing' | 'saving' | null>(null)
  const [pending, setPending] = useState<Pending>(null)
  const [search, setSearch] = useState('')
  const [searchText, setSearchText] = useState('')
  useEffect(() => {
    const timer = window.setTimeout(() => setSearchText(search.trim()), SEARCH_DEBOUNCE_MS)
    return () => window.clearTimeout(timer)
  }, [search])
  const results = useSnippetList(projectRef, searchSection(searchText), searchText !== '')
  // One folder create at a time, whatever fires the submit (Enter, then the blur of the field as it goes).
  const creatingFolder = useRef(false)

  const folderList = folders.data ?? []
  const { mutate: save } = saveSnippet

  const change = useCallback(
    (snippet: ContentListItem, changes: SnippetChanges, success?: string) =>
      save(
        { ref: projectRef, snippet, changes },
        {
          onSuccess: () => {
            setPending(null)
            if (success) toast.success(success)
          },
          onError: (error) => toast.error(`Failed to update query: ${errorMessage(error)}`),
        },
      ),
    [projectRef, save, toast],
  )

  const download = useCallback(
    async (snippet: ContentListItem) => {
      try {
        // Folder listings leave out the content: the draft, else the listed or stored snippet.
        const sql = await snippetSql(queryClient, projectRef, snippet)
        downloadText(`${snippet.name.replace(/[\\/:*?"<>|]+/g, '_')}.sql`, sql, 'application/sql')
      } catch (error) {
        toast.error(`Failed to download query: ${errorMessage(error)}`)
      }
    },
    [projectRef, queryClient, toast],
  )

  // Stable, so that the (memoised) rows of long lists do not all render again on every change.
  const onAction = useCallback(
    (action: SnippetAction, snippet: ContentListItem) => {
      if (action === 'favorite') change(snippet, { favorite: !snippet.favorite })
      else if (action === 'share')
        change(
          snippet,
          snippet.visibility === 'user' ? { visibility: 'project', folder_id: null } : { visibility: 'user' },
          snippet.visibility === 'user' ? 'Query shared with the project' : 'Query is now private',
        )
      else if (action === 'download') void download(snippet)
      else if (action === 'duplicate') onDuplicate(snippet)
      else setPending({ kind: action, snippet })
    },
    [change, download, onDuplicate],
  )

  const row = useCallback<RenderRow>(
    (snippet) => (
      <SnippetRow
        key={snippet.id}
        projectRef={projectRef}
        snippet={snippet}
        rights={{
          change: canSave && (snippet.owner_id === userId || (snippet.visibility !== 'user' && canUpdateProject)),
          move: canSave && snippet.owner_id === userId,
          duplicate: canSave,
        }}
        onAction={onAction}
      />
    ),
    [projectRef, canSave, canUpdateProject, userId, onAction],
  )

  const submitNewFolder = (name: string) => {
    if (creatingFolder.current) return
    creatingFolder.current = true
    setNewFolder('saving')
    createFolder.mutate(
      { ref: projectRef, name },
      {
        onSuccess: () => toast.success('Successfully created folder'),
        // A duplicate name or a failed save removes the new folder (the SQL editor spec's folder states); 409 carries the spec's text.
        onError: (error) => toast.error(isApiError(error, 409) ? error.message : `Failed to save folder: ${errorMessage(error)}`),
        onSettled: () => {
          creatingFolder.current = false
          setNewFolder(null)
        },
      },
    )
  }

  const renameFolder = (folder: Folder, name: string) =>
    updateFolder.mutate(
      { ref: projectRef, id: folder.id, name },
      {
        onSuccess: () => toast.success('Successfully updated folder'),
        onError: (error) => toast.error(isApiError(error, 409) ? error.message : `Failed to save folder: ${errorMessage(error)}`),
      },
    )

  const afterDelete = (ids: string[]) => {
    ids.forEach((id) => forgetDraft(projectRef, id))
    const last = readLastSnippet(projectRef)
    if (last && ids.includes(last)) forgetLastSnippet(projectRef)
    if (currentId && ids.includes(currentId)) {
      const next = allListed(queryClient, projectRef).find((s) => !ids.includes(s.id))
      void navigate(next ? `/project/${projectRef}/sql/${next.id}` : `/project/${projectRef}/sql`, { replace: true })
    }
  }

  /** The snippets of a folder the explorer knows of (loaded pages, and the open one). */
  const snippetsIn = (folder: Folder) => {
    const ids = listedSnippets(queryClient.getQueryData(contentKeys.list(projectRef, folderSection(folder.id)))).map((s) => s.id)
    const current = currentId ? knownSnippet(queryClient, projectRef, currentId) : undefined
    return current?.folder_id === folder.id && !ids.includes(current.id) ? [...ids, current.id] : ids
  }

  const count = (n: number | undefined) => (n === undefined ? '' : ` (${n})`)
  const hasFavorites = (counts.data?.favorites ?? 0) > 0 || listedSnippets(favorites.data).length > 0

  return (
    <nav className="sql-explorer" aria-label="Queries">
      <div className="explorer-header">
        {/* Names the explorer; the open query's name (SnippetWorkspace) is the page's h1. */}
        <h2 className="explorer-title">SQL Editor</h2>
        <div className="explorer-actions">
          <IconButton size="sm" label="New folder" icon={<FolderPlus size={14} aria-hidden="true" />} disabled={!canSave || newFolder !== null} onClick={() => setNewFolder('editing')} />
          <IconButton size="sm" label="New query" icon={<Plus size={14} aria-hidden="true" />} onClick={onNewQuery} />
        </div>
      </div>
      <ExplorerSearch label="Search queries" placeholder="Search name or SQL" value={search} maxLength={256} onChange={setSearch} />
      {searchText ? (
        <Section title="Search results">
          <SectionRows list={results} row={row} what="results" empty={`No queries match '${searchText}'`} />
        </Section>
      ) : null}
      {searchText ? null : hasFavorites ? (
        <Section title={`Favorites${count(counts.data?.favorites)}`}>
          <SectionRows list={favorites} row={row} what="favorites" />
        </Section>
      ) : null}
      {searchText ? null : (
        <>
          <Section title={`Shared${count(counts.data?.shared)}`}>
            <SectionRows list={shared} row={row} what="shared queries" empty="No shared queries" />
          </Section>
          <Section title={`Private${count(counts.data?.private)}`}>
            {newFolder ? (
              <li data-folder-id={NEW_FOLDER_ID}>
                <FolderNameInput initial="" disabled={newFolder === 'saving'} onSubmit={submitNewFolder} onCancel={() => setNewFolder(null)} />
              </li>
            ) : null}
            {folderList.map((folder) => (
              <FolderRow
                key={folder.id}
                folder={folder}
                editable={canSave}
                saving={updateFolder.isPending && updateFolder.variables?.id === folder.id}
                onRename={(name) => renameFolder(folder, name)}
                onDelete={() => setPending({ kind: 'delete-folder', folder })}
              >
                <FolderSnippets projectRef={projectRef} folderId={folder.id} row={row} />
              </FolderRow>
            ))}
            <SectionRows list={loose} row={row} what="private queries" empty={!folderList.length && !newFolder ? 'No private queries' : undefined} />
          </Section>
        </>
      )}

      {pending?.kind === 'rename' ? (
        <RenameSnippetDialog snippet={pending.snippet} saving={saveSnippet.isPending} onClose={() => setPending(null)} onSave={(name) => change(pending.snippet, { name })} />
      ) : null}
      {pending?.kind === 'move' ? (
        <MoveSnippetDialog
          snippet={pending.snippet}
          folders={folderList}
          saving={saveSnippet.isPending}
          onClose={() => setPending(null)}
          onMove={(folderId) => change(pending.snippet, { folder_id: folderId }, 'Query moved')}
        />
      ) : null}
      {pending?.kind === 'delete' ? (
        <ConfirmDeleteDialog
          title="Delete query"
          description={`Are you sure you want to delete '${pending.snippet.name}'? This cannot be undone.`}
          busy={deleteSnippets.isPending}
          onClose={() => setPending(null)}
          onConfirm={() =>
            deleteSnippets.mutate(
              { ref: projectRef, ids: [pending.snippet.id] },
              {
                onSuccess: (_d, { ids }) => {
                  setPending(null)
                  toast.success('Successfully deleted query')
                  afterDelete(ids)
                },
                onError: (error) => toast.error(`Failed to delete query: ${errorMessage(error)}`),
              },
            )
          }
        />
      ) : null}
      {pending?.kind === 'delete-folder' ? (
        <ConfirmDeleteDialog
          title="Delete folder"
          description={`Are you sure you want to delete the folder '${pending.folder.name}'? The queries in it are deleted too.`}
          busy={deleteFolders.isPending}
          onClose={() => setPending(null)}
          onConfirm={() => {
            const inside = snippetsIn(pending.folder)
            deleteFolders.mutate(
              { ref: projectRef, ids: [pending.folder.id] },
              {
                onSuccess: () => {
                  setPending(null)
                  toast.success('Successfully deleted folder')
                  afterDelete(inside)
                },
                onError: (error) => toast.error(`Failed to delete folder: ${errorMessage(error)}`),
              },
            )
          }}
        />
      ) : null}
    </nav>
  )
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="explorer-section">
      <h3 className="explorer-section-title">{title}</h3>
      <ul className="explorer-list">{children}</ul>
    </div>
  )
}

/** A folder's snippets: fetched when the folder is open (FolderRow renders its children then). */
function FolderSnippets({ projectRef, folderId, row }: { projectRef: string; folderId: string; row: RenderRow }) {
  return <SectionRows list={useSnippetList(projectRef, folderSection(folderId))} row={row} what="queries" />
}
