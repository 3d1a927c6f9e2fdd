import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { UPGRADE_STATUS } from '@stratum/contracts'
import { request } from '../request'
import { lifecycleKeys } from './keys'

/** The spec's upgrade status poll. */
export const UPGRADE_STATUS_POLL_MS = 5000

export const getUpgradeStatus = (ref: string, trackingId?: string | null, signal?: AbortSignal) =>
  request('GET /v1/projects/{ref}/upgrade/status', { params: { ref }, query: { tracking_id: trackingId || undefined }, signal })

/** Polled every 5 s while the upgrade runs; stops once it is Upgraded or Failed. */
export const upgradeStatusQuery = (ref: string | undefined, trackingId?: string | null) =>
  queryOptions({
    queryKey: lifecycleKeys.upgradeStatus(ref ?? '', trackingId),
    queryFn: ref ? ({ signal }) => getUpgradeStatus(ref, trackingId, signal) : skipToken,
    refetchInterval: (query) => {
      const status = query.state.data?.databaseUpgradeStatus?.status
      return status === UPGRADE_STATUS.Upgraded || status === UPGRADE_STATUS.Failed ? false : UPGRADE_STATUS_POLL_MS
    },
  })

export function useUpgradeStatus(ref: string | undefined, trackingId?: string | null) {
  return useQuery(upgradeStatusQuery(ref, trackingId))
}
