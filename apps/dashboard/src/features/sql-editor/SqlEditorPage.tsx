import { CONTENT_TEXTS, type ContentItem } from '@stratum/contracts'
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import { Link, useLocation, useNavigate, useNavigation, useParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage, isApiError } from '../../data/api'
import { useSnippet } from '../../data/content/useSnippet'
import { useCan, useOrgPermissions } from '../../data/profile/useCan'
import { useProfile } from '../../data/profile/useProfile'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useIsSmallScreen } from '../../lib/useMediaQuery'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { forgetLastSnippet, readLastSnippet, rememberLastSnippet } from './lastSnippet'
import { ONGOING_QUERIES_PARAM, OngoingQueriesDialog, QUERY_HISTORY_PARAM, QueryHistoryDialog } from './dialogs'
import { SnippetExplorer } from './SnippetExplorer'
import { SnippetWorkspace } from './SnippetWorkspace'
import { useDuplicateSnippet } from './useDuplicateSnippet'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'
import './sql-editor.css'

/** A query not stored yet: /sql's draft, which becomes a snippet when something is typed into it. */
function draftSnippet(id: string, projectId: number, ownerId: string, sql = ''): ContentItem {
  const now = new Date().toISOString()
  return {
    id,
    name: CONTENT_TEXTS.defaultSnippetName,
    type: 'sql',
    visibility: 'user',
    project_id: projectId,
    owner_id: ownerId,
    folder_id: null,
    favorite: false,
    inserted_at: now,
    updated_at: now,
    last_updated_by: null,
    owner: { id: ownerId, username: '' },
    updated_by: null,
    content: { schema_version: '1.0', sql },
  }
}

/**
 * The SQL editor. /project/{ref}/sql opens the snippet the user had open last in the project, or an
 * unsaved draft (after "New query"), which is stored only once something is typed into it: visiting
 * the editor never litters the list with empty snippets. /sql/{id} opens a saved one. The snippet
 * list sits on the left (above the editor on small screens).
 */
export function SqlEditorPage() {
  const { ref, project } = useCurrentProject()
  const { id } = useParams()
  const navigate = useNavigate()
  const small = useIsSmallScreen()
  const profile = useProfile()
  const orgSlug = project?.organization_slug
  const permissionsLoaded = useOrgPermissions(orgSlug) !== undefined
  const canSave = useCan(orgSlug, 'user_content.create')
  const canWrite = useCan(orgSlug, 'sql.write')
  const canUpdateProject = useCan(orgSlug, 'projects.update')
  const location = useLocation()
  const [searchParams, setSearchParams] = useLatestSearchParams()
  const ongoingOpen = searchParams.get(ONGOING_QUERIES_PARAM) === 'true'
  const historyOpen = searchParams.get(QUERY_HISTORY_PARAM) === 'true'
  const [draftId, setDraftId] = useState(() => crypto.randomUUID())
  /** A run reopened from the query history: the new draft starts with its SQL (stored once typed into, like any draft). */
  const [draftSql, setDraftSql] = useState('')
  const userId = profile.data?.id
  const ready = permissionsLoaded && Boolean(project && userId)
  const last = id ? undefined : readLastSnippet(ref)
  const { duplicate } = useDuplicateSnippet(ref)

  // /sql: back to the snippet open last. Read again when the effect runs: a New query clicked before this effect
  // was flushed (a busy machine) forgot it, and the stale render's value must not take the member back.
  useEffect(() => {
    const remembered = id ? undefined : readLastSnippet(ref)
    if (remembered && remembered === last) void navigate(`/project/${ref}/sql/${remembered}${location.search}`, { replace: true })
  }, [id, last, ref, location.search, navigate])
  useEffect(() => {
    if (id) rememberLastSnippet(ref, id)
  }, [ref, id])

  const draft = useMemo(
    () => (!id && !last && ready && project && userId ? draftSnippet(draftId, project.id, userId, draftSql) : null),
    [id, last, ready, project, userId, draftId, draftSql],
  )
  const snippet = useSnippet(ref, id)
  useProjectPageTitle(snippet.data?.name ?? 'SQL Editor')

  // The snippet remembered is gone (deleted, or never saved): /sql shows a draft next time.
  const missing = Boolean(id) && snippet.isError && isApiError(snippet.error, 404)
  useEffect(() => {
    if (missing && id && readLastSnippet(ref) === id) forgetLastSnippet(ref)
  }, [missing, id, ref])

  const openDraft = useCallback(
    (sql: string) => {
      forgetLastSnippet(ref)
      setDraftSql(sql)
      setDraftId(crypto.randomUUID())
      void navigate(`/project/${ref}/sql`)
    },
    [ref, navigate],
  )
  const newQuery = useCallback(() => openDraft(''), [openDraft])

  // The draft was stored on its first edit: the address becomes the snippet's (the editor stays as it is).
  // Only for the draft shown now: an earlier draft's save that ends after New query must not take /sql back to it.
  const shownDraft = useRef(draftId)
  useEffect(() => {
    shownDraft.current = draftId
  }, [draftId])
  // A navigation under way (a link followed while its page's code loads: the address still reads /sql) is not undone:
  // replacing the address then cancelled it, and the member was taken back to the editor (CI, a busy machine).
  const navigation = useNavigation()
  const pendingPath = useRef<string | null>(null)
  // A layout effect, in the commit that starts the navigation: a passive effect could run after the save's answer
  // (a network callback) on a busy machine, and the save then saw no navigation under way (CI, once).
  useLayoutEffect(() => {
    pendingPath.current = navigation.state === 'idle' ? null : navigation.location.pathname
  }, [navigation])
  const onCreated = useCallback(
    (item: ContentItem) => {
      if (item.id !== shownDraft.current) return
      const draftPath = `/project/${ref}/sql`
      if (window.location.pathname !== draftPath || (pendingPath.current !== null && pendingPath.current !== draftPath)) {
        // Left meanwhile: /sql opens the stored snippet next time, as it would have after the address changed.
        rememberLastSnippet(ref, item.id)
        return
      }
      void navigate(`${draftPath}/${item.id}${window.location.search}`, { replace: true })
    },
    [ref, navigate],
  )

  const workspace = (item: ContentItem, isDraft: boolean) => (
    <SnippetWorkspace
      key={item.id}
      projectRef={ref}
      snippet={item}
      isDraft={isDraft}
      userId={userId}
      canSave={canSave}
      canWrite={canWrite}
      isSmall={small}
      onCreated={onCreated}
      onDuplicate={() => void duplicate(item)}
    />
  )

  let content
  if (!id) {
    content = draft ? workspace(draft, true) : <LoadingState label={last ? 'Opening your last query…' : 'Loading…'} />
  } else if (snippet.isPending || !permissionsLoaded) {
    content = <LoadingState label="Loading query…" />
  } else if (snippet.isError) {
    content = (
      <div className="sql-page-message">
        <Alert tone="danger" title={missing ? 'Query not found' : 'Failed to load query'}>
          {errorMessage(snippet.error)}{' '}
          <Link to={`/project/${ref}/sql`} onClick={() => forgetLastSnippet(ref)}>
            Start a new query
          </Link>
        </Alert>
      </div>
    )
  } else {
    content = workspace(snippet.data, false)
  }

  return (
    <div className="sql-page">
      <SnippetExplorer
        projectRef={ref}
        userId={userId}
        canSave={canSave}
        canUpdateProject={canUpdateProject}
        currentId={id}
        onNewQuery={newQuery}
        onDuplicate={duplicate}
      />
      <div className="sql-main">{content}</div>
      {historyOpen ? (
        <QueryHistoryDialog
          projectRef={ref}
          open
          onOpen={openDraft}
          onOpenChange={(open) =>
            setSearchParams((params) => {
              if (open) params.set(QUERY_HISTORY_PARAM, 'true')
              else params.delete(QUERY_HISTORY_PARAM)
              return params
            })
          }
        />
      ) : null}
      {ongoingOpen ? (
        <OngoingQueriesDialog
          projectRef={ref}
          open
          canWrite={canWrite}
          onOpenChange={(open) =>
            setSearchParams((params) => {
              if (open) params.set(ONGOING_QUERIES_PARAM, 'true')
              else params.delete(ONGOING_QUERIES_PARAM)
              return params
            })
          }
        />
      ) : null}
    </div>
  )
}
