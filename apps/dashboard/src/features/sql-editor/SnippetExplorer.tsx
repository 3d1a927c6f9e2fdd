import type { ContentItem, Folder } from '@stratum/contracts'
import { FolderPlus, Plus } from 'lucide-react'
import { useState, type ReactNode } from 'react'
import { useNavigate } from 'react-router'
import { IconButton } from '../../components/ui/Button'
import { Spinner } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { errorMessage, isApiError } from '../../data/api'
import { useDeleteSnippets } from '../../data/content/useDeleteSnippets'
import { useCreateFolder, useDeleteFolders, useUpdateFolder } from '../../data/content/useFolderMutations'
import { useFolders } from '../../data/content/useFolders'
import { useSaveSnippet, type SnippetChanges } from '../../data/content/useSaveSnippet'
import { useSnippets } from '../../data/content/useSnippets'
import { downloadText } from '../results-grid'
import { forgetDraft, getDraft } from './drafts'
import { FolderNameInput, FolderRow } from './FolderRow'
import { ConfirmDeleteDialog, MoveSnippetDialog, RenameSnippetDialog } from './SnippetDialogs'
import { SnippetRow, type SnippetAction } from './SnippetRow'

/** The temporary id of a folder being created (spec §3). */
export const NEW_FOLDER_ID = 'new-folder'

interface SnippetExplorerProps {
  projectRef: string
  userId: string | undefined
  canSave: boolean
  currentId: string | undefined
  onNewQuery: () => void
}

type Pending = { kind: 'rename' | 'move' | 'delete'; snippet: ContentItem } | { kind: 'delete-folder'; folder: Folder } | null

/** Snippets on the left of the editor: favorites, shared, private with folders, and their actions. */
export function SnippetExplorer({ projectRef, userId, canSave, currentId, onNewQuery }: SnippetExplorerProps) {
  const toast = useToast()
  const navigate = useNavigate()
  const snippets = useSnippets(projectRef)
  const folders = useFolders(projectRef)
  const saveSnippet = useSaveSnippet()
  const deleteSnippets = useDeleteSnippets()
  const createFolder = useCreateFolder()
  const updateFolder = useUpdateFolder()
  const deleteFolders = useDeleteFolders()
  const [newFolder, setNewFolder] = useState<'editing' | 'saving' | null>(null)
  const [pending, setPending] = useState<Pending>(null)

  const all = snippets.data ?? []
  const folderList = folders.data ?? []
  const mayEdit = (snippet: ContentItem) => canSave && (snippet.visibility !== 'user' || snippet.owner_id === userId)

  const change = (snippet: ContentItem, changes: SnippetChanges, success?: string) =>
    saveSnippet.mutate(
      { ref: projectRef, snippet, changes },
      {
        onSuccess: () => {
          setPending(null)
          if (success) toast.success(success)
        },
        onError: (error) => toast.error(`Failed to update query: ${errorMessage(error)}`),
      },
    )

  const onAction = (action: SnippetAction, snippet: ContentItem) => {
    if (action === 'favorite') change(snippet, { favorite: !snippet.favorite })
    else if (action === 'share')
      change(snippet, snippet.visibility === 'user' ? { visibility: 'project', folder_id: null } : { visibility: 'user' }, snippet.visibility === 'user' ? 'Query shared with the project' : 'Query is now private')
    else if (action === 'download') downloadText(`${snippet.name.replace(/[\\/:*?"<>|]+/g, '_')}.sql`, getDraft(projectRef, snippet.id).sql ?? snippet.content.sql, 'application/sql')
    else setPending({ kind: action, snippet })
  }

  const submitNewFolder = (name: string) => {
    setNewFolder('saving')
    createFolder.mutate(
      { ref: projectRef, name },
      {
        onSuccess: () => toast.success('Successfully created folder'),
        // A duplicate name or a failed save removes the new folder (spec §4); 409 carries the spec's text.
        onError: (error) => toast.error(isApiError(error, 409) ? error.message : `Failed to save folder: ${errorMessage(error)}`),
        onSettled: () => setNewFolder(null),
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
    if (currentId && ids.includes(currentId)) {
      const next = all.find((s) => !ids.includes(s.id))
      navigate(next ? `/project/${projectRef}/sql/${next.id}` : `/project/${projectRef}/sql`, { replace: true })
    }
  }

  const row = (snippet: ContentItem) => <SnippetRow key={snippet.id} projectRef={projectRef} snippet={snippet} editable={mayEdit(snippet)} onAction={onAction} />
  const favorites = all.filter((s) => s.favorite)
  const shared = all.filter((s) => s.visibility !== 'user')
  const mine = all.filter((s) => s.visibility === 'user')
  const loose = mine.filter((s) => !s.folder_id || !folderList.some((f) => f.id === s.folder_id))

  return (
    <nav className="sql-explorer" aria-label="Queries">
      <div className="explorer-header">
        {/* The page's one h1: the editor has no other page heading. */}
        <h1 className="explorer-title">SQL Editor</h1>
        <div className="explorer-actions">
          <IconButton size="sm" label="New folder" icon={<FolderPlus size={14} aria-hidden="true" />} disabled={!canSave || newFolder !== null} onClick={() => setNewFolder('editing')} />
          <IconButton size="sm" label="New query" icon={<Plus size={14} aria-hidden="true" />} onClick={onNewQuery} />
        </div>
      </div>
      {snippets.isPending ? (
        <div className="explorer-empty">
          <Spinner size={14} /> Loading queries…
        </div>
      ) : snippets.isError ? (
        <div className="explorer-empty" role="alert">
          Failed to load queries: {errorMessage(snippets.error)}
        </div>
      ) : (
        <>
          {favorites.length ? <Section title="Favorites">{favorites.map(row)}</Section> : null}
          <Section title={`Shared (${shared.length})`}>{shared.length ? shared.map(row) : <li className="explorer-empty">No shared queries</li>}</Section>
          <Section title={`Private (${mine.length})`}>
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
                {mine.filter((s) => s.folder_id === folder.id).map(row)}
              </FolderRow>
            ))}
            {loose.map(row)}
            {!mine.length && !folderList.length && !newFolder ? <li className="explorer-empty">No private queries</li> : null}
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
            const inside = mine.filter((s) => s.folder_id === pending.folder.id).map((s) => s.id)
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
