import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { lifecycleKeys } from './keys'

export const getPauseStatus = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}/pause/status', { params: { ref }, signal })

/** Whether (and for how many more days) a paused project can be restored from the dashboard. */
export const pauseStatusQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: lifecycleKeys.pauseStatus(ref ?? ''),
    queryFn: ref ? ({ signal }) => getPauseStatus(ref, signal) : skipToken,
  })

export function usePauseStatus(ref: string | undefined, enabled = true) {
  return useQuery({ ...pauseStatusQuery(ref), enabled })
}
