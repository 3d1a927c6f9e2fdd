import { PERMISSION_TEXTS } from '@stratum/contracts'
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { databaseAdminKeys } from '../../data/database-admin/keys'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'
import type { PendingSql } from '../table-editor'

/** Why a control is disabled for a member without the full connection (the table editor's rule). */
export const READ_ONLY_REASON = PERMISSION_TEXTS.changeDatabase

/**
 * What each Database admin page shares: the project, whether the member may change the database (`sql.write`, as
 * the table editor asks), and the SQL waiting in the preview dialog; once it runs, every read of these pages reloads.
 */
export function useAdminPage() {
  const { ref, project } = useCurrentProject()
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const queryClient = useQueryClient()
  const [pending, setPending] = useState<PendingSql | undefined>()
  const preview = useCallback(
    (next: PendingSql) =>
      setPending({
        ...next,
        onDone: () => {
          next.onDone?.()
          void queryClient.invalidateQueries({ queryKey: databaseAdminKeys.all(ref) })
        },
      }),
    [queryClient, ref],
  )
  return { ref, project, canWrite, pending, preview, closePreview: () => setPending(undefined) }
}

/** A page's choice kept in the URL (?schema=, ?role=...), so a reload or a shared link opens the same view. */
export function useUrlParam(name: string): [string | undefined, (value: string) => void] {
  const [params, setParams] = useLatestSearchParams()
  const setValue = useCallback(
    (value: string) =>
      setParams(
        (current) => {
          current.set(name, value)
          return current
        },
        { replace: true },
      ),
    [name, setParams],
  )
  return [params.get(name) || undefined, setValue]
}

/** The schema a page lists: public unless the URL names another. */
export function useSchemaParam(): [string, (schema: string) => void] {
  const [schema, setSchema] = useUrlParam('schema')
  return [schema ?? 'public', setSchema]
}
