import { PERMISSION_TEXTS } from '@stratum/contracts'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { databaseObjectKeys } from '../../data/database-objects/keys'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'
import { SqlPreviewDialog, type PendingSql } from '../table-editor'

/** Why a change control is disabled for a member without the full connection (Read-only). */
export const READ_ONLY_REASON = PERMISSION_TEXTS.changeDatabase

/**
 * What every page of this feature shares: the project, whether the member may change the database (the server
 * refuses the full connection otherwise; the controls say why), the schema in the URL (`?schema=`, public by
 * default) and the SQL preview, after which the listings are read again.
 */
export function useObjectsPage() {
  const { ref, project } = useCurrentProject()
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const [params, setParams] = useLatestSearchParams()
  const schema = params.get('schema') ?? 'public'
  const setSchema = useCallback(
    (next: string) =>
      setParams((current) => {
        current.set('schema', next)
        return current
      }),
    [setParams],
  )
  const queryClient = useQueryClient()
  const [pending, setPending] = useState<PendingSql | undefined>()
  const preview = useCallback(
    (sql: PendingSql) =>
      setPending({
        ...sql,
        onDone: () => {
          void queryClient.invalidateQueries({ queryKey: databaseObjectKeys.all(ref) })
          sql.onDone?.()
        },
      }),
    [queryClient, ref],
  )
  const previewDialog = <SqlPreviewDialog projectRef={ref} pending={pending} onClose={() => setPending(undefined)} />
  // Said once above the listing (as on Extensions); each disabled control repeats it in its tooltip.
  const readOnlyNotice = canWrite || !project ? null : (
    <Alert tone="info" live={false}>
      {READ_ONLY_REASON}.
    </Alert>
  )
  return { ref, project, canWrite, schema, setSchema, preview, previewDialog, readOnlyNotice }
}
