import type { UpdatePostgresConfigBody } from '@stratum/contracts'
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'

export type { NetworkRestrictions, SslEnforcement } from '@stratum/contracts'

export const databaseConfigKeys = {
  all: (ref: string) => ['database-config', ref] as const,
  postgres: (ref: string) => [...databaseConfigKeys.all(ref), 'postgres'] as const,
  network: (ref: string) => [...databaseConfigKeys.all(ref), 'network'] as const,
  ssl: (ref: string) => [...databaseConfigKeys.all(ref), 'ssl'] as const,
}

export const postgresConfigQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseConfigKeys.postgres(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /v1/projects/{ref}/config/database/postgres', { params: { ref }, signal }) : skipToken,
  })
export const networkRestrictionsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseConfigKeys.network(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /v1/projects/{ref}/network-restrictions', { params: { ref }, signal }) : skipToken,
  })
export const sslEnforcementQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseConfigKeys.ssl(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /v1/projects/{ref}/ssl-enforcement', { params: { ref }, signal }) : skipToken,
  })

export const usePostgresConfig = (ref: string | undefined) => useQuery(postgresConfigQuery(ref))
export const useNetworkRestrictions = (ref: string | undefined) => useQuery(networkRestrictionsQuery(ref))
export const useSslEnforcement = (ref: string | undefined) => useQuery(sslEnforcementQuery(ref))

export function useUpdatePostgresConfig(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdatePostgresConfigBody) => request('PUT /v1/projects/{ref}/config/database/postgres', { params: { ref }, body }),
    onSuccess: (config) => queryClient.setQueryData(databaseConfigKeys.postgres(ref), config),
  })
}

export function useApplyNetworkRestrictions(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { dbAllowedCidrs: string[]; dbAllowedCidrsV6: string[] }) =>
      request('POST /v1/projects/{ref}/network-restrictions/apply', { params: { ref }, body }),
    onSuccess: (answer) => queryClient.setQueryData(databaseConfigKeys.network(ref), answer),
  })
}

export function useUpdateSslEnforcement(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (database: boolean) => request('PUT /v1/projects/{ref}/ssl-enforcement', { params: { ref }, body: { requestedConfig: { database } } }),
    onSuccess: (answer) => queryClient.setQueryData(databaseConfigKeys.ssl(ref), answer),
  })
}
