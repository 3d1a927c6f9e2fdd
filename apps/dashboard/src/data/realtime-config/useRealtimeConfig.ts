import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { RealtimeConfigUpdateBody } from '@stratum/contracts'
import { request } from '../request'

export const realtimeConfigKeys = {
  all: ['realtime-config'] as const,
  detail: (ref: string) => [...realtimeConfigKeys.all, ref] as const,
}

export const realtimeConfigQuery = (ref: string) =>
  queryOptions({
    queryKey: realtimeConfigKeys.detail(ref),
    queryFn: ({ signal }) => request('GET /platform/projects/{ref}/config/realtime', { params: { ref }, signal }),
  })

/** Realtime's settings in force: limits, private channels only, suspended. */
export function useRealtimeConfig(ref: string) {
  return useQuery(realtimeConfigQuery(ref))
}

export function useUpdateRealtimeConfig() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ ref, change }: { ref: string; change: RealtimeConfigUpdateBody }) =>
      request('PATCH /platform/projects/{ref}/config/realtime', { params: { ref }, body: change }),
    onSuccess: (result, { ref }) => queryClient.setQueryData(realtimeConfigKeys.detail(ref), result),
  })
}

/** Ends every realtime connection of the project; clients reconnect by themselves. */
export function useShutdownRealtime() {
  return useMutation({
    mutationFn: ({ ref }: { ref: string }) => request('POST /platform/projects/{ref}/config/realtime/shutdown', { params: { ref } }),
  })
}
