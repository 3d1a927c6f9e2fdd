import { useQuery } from '@tanstack/react-query'
import type { PauseStatus } from '@stratum/contracts'
import { api } from '../api'
import { lifecycleKeys } from './keys'

export const getPauseStatus = (ref: string, signal?: AbortSignal) =>
  api<PauseStatus>(`/platform/projects/${encodeURIComponent(ref)}/pause/status`, { signal })

/** Whether (and for how many more days) a paused project can be restored from the dashboard. */
export function usePauseStatus(ref: string | undefined, enabled = true) {
  return useQuery({
    queryKey: lifecycleKeys.pauseStatus(ref ?? ''),
    queryFn: ({ signal }) => getPauseStatus(ref!, signal),
    enabled: Boolean(ref) && enabled,
  })
}
