import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { OperationKindName, OperationProgress } from '@stratum/contracts'
import { request } from '../request'
import { lifecycleKeys } from './keys'

/** As the takeover screens poll the project's status (the project shell spec's 4 s). */
const OPERATIONS_POLL_MS = 4000

export const projectOperationsQuery = (ref: string | undefined, poll = false) =>
  queryOptions({
    queryKey: lifecycleKeys.operations(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /platform/projects/{ref}/operations', { params: { ref }, signal }) : skipToken,
    refetchInterval: poll ? OPERATIONS_POLL_MS : false,
  })

/** The project's newest operation of a kind that has not ended (queued, running or cancelling), if any. */
export function useRunningOperation(ref: string | undefined, kind: OperationKindName): OperationProgress | undefined {
  const { data } = useQuery(projectOperationsQuery(ref, true))
  return data?.operations.find((op) => op.kind === kind && op.finished_at === null)
}
