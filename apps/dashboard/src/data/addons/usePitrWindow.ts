import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { Backup, PitrWindow } from '@stratum/contracts'
import { api } from '../api'
import { addonKeys } from './keys'

/** GET /platform/database/{ref}/backups as the Point in time page reads it. */
export interface PitrBackupsResponse {
  region?: string
  pitr_enabled: boolean
  walg_enabled?: boolean
  backups: Backup[]
  physical_backup_data: PitrWindow
}

export const getPitrBackups = (ref: string, signal?: AbortSignal) =>
  api<PitrBackupsResponse>(`/platform/database/${encodeURIComponent(ref)}/backups`, { signal })

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
