import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { GB, type DiskQuota } from '@stratum/contracts'
import { api } from '../api'
import { usageKeys } from './keys'

const diskPath = (ref: string) => `/platform/projects/${encodeURIComponent(ref)}/disk`

export const diskQuotaQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: usageKeys.disk(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<DiskQuota>(diskPath(ref), { signal }) : skipToken,
  })

export function useDiskQuota(ref: string | undefined) {
  return useQuery(diskQuotaQuery(ref))
}

/** Changes the disk quota; the warnings (stale for an hour otherwise) are read again, since read-only mode may have ended. */
export function useChangeDiskQuota() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ ref, sizeGb }: { ref: string; sizeGb: number }) => api<DiskQuota>(diskPath(ref), { method: 'POST', body: { size_gb: sizeGb } }),
    onSuccess: async (quota, { ref }) => {
      queryClient.setQueryData(usageKeys.disk(ref), quota)
      await queryClient.invalidateQueries({ queryKey: usageKeys.all })
    },
  })
}

/** Lets writes through for 15 minutes so data can be deleted (POST /v1/projects/{ref}/readonly/temporary-disable). */
export function useDisableReadOnlyTemporarily() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ ref }: { ref: string }) => api<object>(`/v1/projects/${encodeURIComponent(ref)}/readonly/temporary-disable`, { method: 'POST', body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usageKeys.all }),
  })
}

export const bytesToGb = (bytes: number) => bytes / GB
