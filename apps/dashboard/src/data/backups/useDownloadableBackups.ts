import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { backupKeys } from './keys'

export const getDownloadableBackups = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/database/{ref}/backups/downloadable-backups', { params: { ref }, signal })

/** Logical backups only, newest first: they restore into any empty Postgres. */
export const downloadableBackupsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: backupKeys.downloadable(ref ?? ''),
    queryFn: ref ? ({ signal }) => getDownloadableBackups(ref, signal) : skipToken,
    select: (data) => [...data.backups].sort((a, b) => b.inserted_at.localeCompare(a.inserted_at)),
  })

export function useDownloadableBackups(ref: string | undefined, enabled = true) {
  return useQuery({ ...downloadableBackupsQuery(ref), enabled })
}
