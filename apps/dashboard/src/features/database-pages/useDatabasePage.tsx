import { PERMISSION_TEXTS } from '@stratum/contracts'
import { useQueryClient, type QueryKey } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { useCan } from '../../data/profile/useCan'
import { useCurrentProject } from '../../data/projects/useCurrentProject'
import { useLatestSearchParams } from '../../lib/useLatestSearchParams'
import { SqlPreviewDialog, type PendingSql } from '../table-editor'

/** Why a change control is disabled for a member without the full connection (Read-only): the table editor's rule. */
export const READ_ONLY_REASON = PERMISSION_TEXTS.changeDatabase

/**
 * What every page that changes the database through SQL shares (the Database pages, Cron): the project, whether the
 * member may change the database (`sql.write`: the server refuses the full connection otherwise, and each disabled
 * control says why in `writeLock`), the notice saying it once above the page, and the SQL preview, after which the
 * page's reads (`reloads`) are made again.
 */
export function useDatabasePage(reloads: (ref: string) => QueryKey) {
  const { ref, project } = useCurrentProject()
  const canWrite = useCan(project?.organization_slug, 'sql.write')
  const queryClient = useQueryClient()
  const [pending, setPending] = useState<PendingSql | undefined>()
  const preview = useCallback(
    (next: PendingSql) =>
      setPending({
        ...next,
        onDone: () => {
          void queryClient.invalidateQueries({ queryKey: reloads(ref) })
          next.onDone?.()
        },
      }),
    [queryClient, reloads, ref],
  )
  const previewDialog = <SqlPreviewDialog projectRef={ref} pending={pending} onClose={() => setPending(undefined)} />
  const readOnlyNotice = canWrite || !project ? null : (
    <Alert tone="info" live={false}>
      {READ_ONLY_REASON}.
    </Alert>
  )
  return { ref, project, canWrite, writeLock: canWrite ? undefined : READ_ONLY_REASON, preview, previewDialog, readOnlyNotice }
}

export type DatabasePageState = ReturnType<typeof useDatabasePage>

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

/** The schema a page lists (in the URL) and the search typed above its listing. */
export function useSchemaSearch() {
  const [schema, setSchema] = useSchemaParam()
  const [search, setSearch] = useState('')
  return { schema, setSchema, search, setSearch }
}

export type SchemaSearch = ReturnType<typeof useSchemaSearch>

/** The schema a page lists: public unless the URL names another. */
export function useSchemaParam(): [string, (schema: string) => void] {
  const [schema, setSchema] = useUrlParam('schema')
  return [schema ?? 'public', setSchema]
}
