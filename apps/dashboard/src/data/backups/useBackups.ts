import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { Backup } from '@stratum/contracts'
import { api } from '../api'
import { backupKeys } from './keys'

export interface BackupsResponse {
  backups: Backup[]
  pitr_enabled?: boolean
  region?: string
}

export const getBackups = (ref: string, signal?: AbortSignal) =>
  api<BackupsResponse>(`/platform/database/${encodeURIComponent(ref)}/backups`, { signal })

/** Every backup of the project: physical (taken on pause) and logical. */
export const backupsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: backupKeys.list(ref ?? ''),
    queryFn: ref ? ({ signal }) => getBackups(ref, signal) : skipToken,
  })

export function useBackups(ref: string | undefined) {
  return useQuery(backupsQuery(ref))
}
