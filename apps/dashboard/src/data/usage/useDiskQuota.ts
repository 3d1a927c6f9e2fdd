import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { GB } from '@stratum/contracts'
import { request } from '../request'
import { usageKeys } from './keys'

export const diskQuotaQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: usageKeys.disk(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /platform/projects/{ref}/disk', { params: { ref }, signal }) : skipToken,
  })

export function useDiskQuota(ref: string | undefined) {
  return useQuery(diskQuotaQuery(ref))
}

/** Changes the disk quota; the warnings (stale for an hour otherwise) are read again, since read-only mode may have ended. */
export function useChangeDiskQuota() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ ref, sizeGb }: { ref: string; sizeGb: number }) => request('POST /platform/projects/{ref}/disk', { params: { ref }, body: { size_gb: sizeGb } }),
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
    mutationFn: ({ ref }: { ref: string }) => request('POST /v1/projects/{ref}/readonly/temporary-disable', { params: { ref }, body: {} }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: usageKeys.all }),
  })
}

export const bytesToGb = (bytes: number) => bytes / GB
