import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { addonKeys } from './keys'

/** GET /platform/database/{ref}/backups as the Point in time page reads it. */
export type { DatabaseBackups as PitrBackupsResponse } from '@stratum/contracts'

export const getPitrBackups = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/database/{ref}/backups', { params: { ref }, signal })

/** While the first base backup is taken there is no window yet: it opens within seconds of the backup's end. */
const AWAITING_WINDOW_POLL_MS = 5_000
/** Once open, the window moves forward as WAL is archived. */
const OPEN_WINDOW_POLL_MS = 60_000

/** Read again while the page is open: every few seconds until the window opens, then every minute. */
export const pitrWindowQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: addonKeys.pitrWindow(ref ?? ''),
    queryFn: ref ? ({ signal }) => getPitrBackups(ref, signal) : skipToken,
    refetchInterval: (query) => (query.state.data?.physical_backup_data?.latestPhysicalBackupDateUnix !== undefined ? OPEN_WINDOW_POLL_MS : AWAITING_WINDOW_POLL_MS),
  })

export function usePitrWindow(ref: string | undefined) {
  return useQuery(pitrWindowQuery(ref))
}
