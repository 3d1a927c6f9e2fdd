import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { UsageInterval } from '@stratum/contracts'
import { request } from '../request'
import { usageKeys } from './keys'

/** A project's usage series (disk, CPU, memory, connections, disk IO), polled while the Infrastructure page shows it. */
export const projectUsageQuery = (ref: string | undefined, interval: UsageInterval) =>
  queryOptions({
    queryKey: usageKeys.series(ref ?? '', interval),
    queryFn: ref ? ({ signal }) => request('GET /platform/projects/{ref}/usage', { params: { ref }, query: { interval }, signal }) : skipToken,
    refetchInterval: interval === '1h' ? 10_000 : 60_000,
  })

export function useProjectUsage(ref: string | undefined, interval: UsageInterval) {
  return useQuery(projectUsageQuery(ref, interval))
}
