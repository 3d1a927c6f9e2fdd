import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { ProjectUsage, UsageInterval } from '@stratum/contracts'
import { api } from '../api'
import { usageKeys } from './keys'

/** A project's usage series (disk, CPU, memory, connections, disk IO), polled while the Infrastructure page shows it. */
export const projectUsageQuery = (ref: string | undefined, interval: UsageInterval) =>
  queryOptions({
    queryKey: usageKeys.series(ref ?? '', interval),
    queryFn: ref ? ({ signal }) => api<ProjectUsage>(`/platform/projects/${encodeURIComponent(ref)}/usage?interval=${interval}`, { signal }) : skipToken,
    refetchInterval: interval === '1h' ? 10_000 : 60_000,
  })

export function useProjectUsage(ref: string | undefined, interval: UsageInterval) {
  return useQuery(projectUsageQuery(ref, interval))
}
