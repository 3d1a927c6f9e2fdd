import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { OperationKindName, OperationList, OperationProgress } from '@stratum/contracts'
import { api } from '../api'
import { lifecycleKeys } from './keys'

/** As the takeover screens poll the project's status (the project shell spec's 4 s). */
const OPERATIONS_POLL_MS = 4000

export const projectOperationsQuery = (ref: string | undefined, poll = false) =>
  queryOptions({
    queryKey: lifecycleKeys.operations(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<OperationList>(`/platform/projects/${encodeURIComponent(ref)}/operations`, { signal }) : skipToken,
    refetchInterval: poll ? OPERATIONS_POLL_MS : false,
  })

/** The project's newest operation of a kind that has not ended (queued, running or cancelling), if any. */
export function useRunningOperation(ref: string | undefined, kind: OperationKindName): OperationProgress | undefined {
  const { data } = useQuery(projectOperationsQuery(ref, true))
  return data?.operations.find((op) => op.kind === kind && op.finished_at === null)
}
