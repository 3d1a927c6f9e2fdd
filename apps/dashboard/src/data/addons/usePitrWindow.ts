import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { addonKeys } from './keys'

/** GET /platform/database/{ref}/backups as the Point in time page reads it. */
export type { DatabaseBackups as PitrBackupsResponse } from '@stratum/contracts'

export const getPitrBackups = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/database/{ref}/backups', { params: { ref }, signal })

/** The recoverable window moves forward as WAL is archived: read again every minute while the page is open. */
export const pitrWindowQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: addonKeys.pitrWindow(ref ?? ''),
    queryFn: ref ? ({ signal }) => getPitrBackups(ref, signal) : skipToken,
    refetchInterval: 60_000,
  })

export function usePitrWindow(ref: string | undefined) {
  return useQuery(pitrWindowQuery(ref))
}
