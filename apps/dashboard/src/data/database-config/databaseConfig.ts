import type { PostgresConfig, UpdatePostgresConfigBody } from '@stratum/contracts'
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'

export interface NetworkRestrictions {
  entitlement: 'allowed' | 'disallowed'
  config: { dbAllowedCidrs: string[]; dbAllowedCidrsV6: string[] }
  status: 'stored' | 'applied'
  applied_at?: string
}

export interface SslEnforcement {
  currentConfig: { database: boolean }
  appliedSuccessfully: boolean
}

export const databaseConfigKeys = {
  all: (ref: string) => ['database-config', ref] as const,
  postgres: (ref: string) => [...databaseConfigKeys.all(ref), 'postgres'] as const,
  network: (ref: string) => [...databaseConfigKeys.all(ref), 'network'] as const,
  ssl: (ref: string) => [...databaseConfigKeys.all(ref), 'ssl'] as const,
}

const base = (ref: string) => `/v1/projects/${encodeURIComponent(ref)}`

export const postgresConfigQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseConfigKeys.postgres(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<Partial<PostgresConfig>>(`${base(ref)}/config/database/postgres`, { signal }) : skipToken,
  })
export const networkRestrictionsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseConfigKeys.network(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<NetworkRestrictions>(`${base(ref)}/network-restrictions`, { signal }) : skipToken,
  })
export const sslEnforcementQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: databaseConfigKeys.ssl(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<SslEnforcement>(`${base(ref)}/ssl-enforcement`, { signal }) : skipToken,
  })

export const usePostgresConfig = (ref: string | undefined) => useQuery(postgresConfigQuery(ref))
export const useNetworkRestrictions = (ref: string | undefined) => useQuery(networkRestrictionsQuery(ref))
export const useSslEnforcement = (ref: string | undefined) => useQuery(sslEnforcementQuery(ref))

export function useUpdatePostgresConfig(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: UpdatePostgresConfigBody) => api<Partial<PostgresConfig>>(`${base(ref)}/config/database/postgres`, { method: 'PUT', body }),
    onSuccess: (config) => queryClient.setQueryData(databaseConfigKeys.postgres(ref), config),
  })
}

export function useApplyNetworkRestrictions(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: { dbAllowedCidrs: string[]; dbAllowedCidrsV6: string[] }) =>
      api<NetworkRestrictions>(`${base(ref)}/network-restrictions/apply`, { method: 'POST', body }),
    onSuccess: (answer) => queryClient.setQueryData(databaseConfigKeys.network(ref), answer),
  })
}

export function useUpdateSslEnforcement(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (database: boolean) => api<SslEnforcement>(`${base(ref)}/ssl-enforcement`, { method: 'PUT', body: { requestedConfig: { database } } }),
    onSuccess: (answer) => queryClient.setQueryData(databaseConfigKeys.ssl(ref), answer),
  })
}
