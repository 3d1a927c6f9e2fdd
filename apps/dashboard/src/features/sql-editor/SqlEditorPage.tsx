import { CONTENT_TEXTS, type ContentItem } from '@stratum/contracts'
import { useEffect, useMemo, useRef, useState } from 'react'
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router'
import { Alert } from '../../components/ui/Alert'
import { LoadingState } from '../../components/ui/Spinner'
import { useToast } from '../../components/ui/Toast'
import { errorMessage, isApiError } from '../../data/api'
import { useCreateSnippet } from '../../data/content/useCreateSnippet'
import { useSnippet } from '../../data/content/useSnippet'
import { useCan, useOrgPermissions } from '../../data/profile/useCan'
import { useProfile } from '../../data/profile/useProfile'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useIsSmallScreen } from '../../lib/useMediaQuery'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { ONGOING_QUERIES_PARAM, OngoingQueriesDialog } from './OngoingQueriesDialog'
import { SnippetExplorer } from './SnippetExplorer'
import { SnippetWorkspace } from './SnippetWorkspace'
import './sql-editor.css'

/** A snippet that lives only in this tab (a member who may not save). */
function localSnippet(id: string, projectId: number, ownerId: string): ContentItem {
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
    content: { schema_version: '1.0', sql: '' },
  }
}

/**
 * The SQL editor: /project/{ref}/sql makes a new snippet and moves to /sql/{id}; /sql/{id} opens
 * a saved one. The snippet list sits on the left (above the editor on small screens).
 */
export function SqlEditorPage() {
  const { ref, project } = useCurrentProject()
  const { id } = useParams()
  const navigate = useNavigate()
  const toast = useToast()
  const small = useIsSmallScreen()
  const profile = useProfile()
  const orgSlug = project?.organization_slug
  const permissionsLoaded = useOrgPermissions(orgSlug) !== undefined
  const canSave = useCan(orgSlug, 'user_content.create')
  const canWrite = useCan(orgSlug, 'sql.write')
  const location = useLocation()
  const [searchParams, setSearchParams] = useSearchParams()
  const ongoingOpen = searchParams.get(ONGOING_QUERIES_PARAM) === 'true'
  const createSnippet = useCreateSnippet()
  const creating = useRef(false)
  const [localId, setLocalId] = useState(() => crypto.randomUUID())
  const ready = permissionsLoaded && Boolean(project && profile.data)
  // Nothing is saved for a member without the permission: their new query lives in this tab.
  const local = useMemo(
    () => (!id && ready && !canSave && project && profile.data ? localSnippet(localId, project.id, profile.data.id) : null),
    [id, ready, canSave, project, profile.data, localId],
  )
  const snippet = useSnippet(ref, id)
  useProjectPageTitle(snippet.data?.name ?? 'SQL Editor')

  const create = () => {
    if (creating.current) return
    creating.current = true
    createSnippet.mutate(
      { ref, id: crypto.randomUUID() },
      {
        onSuccess: (item) => navigate(`/project/${ref}/sql/${item.id}${location.search}`, { replace: !id }),
        onError: (error) => toast.error(`Failed to create new query: ${errorMessage(error)}`),
        onSettled: () => {
          creating.current = false
        },
      },
    )
  }

  const newQuery = () => {
    if (!ready) return
    if (canSave) return create()
    setLocalId(crypto.randomUUID())
    void navigate(`/project/${ref}/sql`)
  }

  // /sql: a new snippet straight away.
  useEffect(() => {
    if (!id && ready && canSave && !createSnippet.isError) create()
    // create reads the latest state; this runs when the route or readiness changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, ready])

  let content
  if (!id && local) {
    content = <SnippetWorkspace key={local.id} projectRef={ref} snippet={local} canSave={false} isSmall={small} />
  } else if (!id) {
    content = createSnippet.isError ? (
      <div className="sql-page-message">
        <Alert tone="danger" title="Failed to create new query">
          {errorMessage(createSnippet.error)}
        </Alert>
      </div>
    ) : (
      <LoadingState label="Creating a new query…" />
    )
  } else if (snippet.isPending || !permissionsLoaded) {
    content = <LoadingState label="Loading query…" />
  } else if (snippet.isError) {
    content = (
      <div className="sql-page-message">
        <Alert tone="danger" title={isApiError(snippet.error, 404) ? 'Query not found' : 'Failed to load query'}>
          {errorMessage(snippet.error)} <Link to={`/project/${ref}/sql`}>Start a new query</Link>
        </Alert>
      </div>
    )
  } else {
    content = <SnippetWorkspace key={snippet.data.id} projectRef={ref} snippet={snippet.data} canSave={canSave} isSmall={small} />
  }

  return (
    <div className="sql-page">
      <SnippetExplorer projectRef={ref} userId={profile.data?.id} canSave={canSave} currentId={id} onNewQuery={newQuery} />
      <div className="sql-main">{content}</div>
      <OngoingQueriesDialog
        projectRef={ref}
        open={ongoingOpen}
        canWrite={canWrite}
        onOpenChange={(open) =>
          setSearchParams((params) => {
            if (open) params.set(ONGOING_QUERIES_PARAM, 'true')
            else params.delete(ONGOING_QUERIES_PARAM)
            return params
          })
        }
      />
    </div>
  )
}
