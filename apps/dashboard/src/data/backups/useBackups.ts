import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { backupKeys } from './keys'

export type { DatabaseBackups as BackupsResponse } from '@stratum/contracts'

export const getBackups = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/database/{ref}/backups', { params: { ref }, signal })

/** Every backup of the project: physical (taken on pause) and logical. */
export const backupsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: backupKeys.list(ref ?? ''),
    queryFn: ref ? ({ signal }) => getBackups(ref, signal) : skipToken,
  })

export function useBackups(ref: string | undefined) {
  return useQuery(backupsQuery(ref))
}
