import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ProjectAuthSettings, ProjectAuthSettingsUpdate } from '@stratum/contracts'
import { api } from '../api'
import { projectAuthKeys } from './keys'

const path = (ref: string) => `/platform/auth/${encodeURIComponent(ref)}/config`

export const authConfigQuery = (ref: string) =>
  queryOptions({ queryKey: projectAuthKeys.config(ref), queryFn: ({ signal }) => api<ProjectAuthSettings>(path(ref), { signal }) })

/** The project's auth settings (sign-up, providers, URLs, token lifetime, rate limits). */
export function useAuthConfig(ref: string) {
  return useQuery(authConfigQuery(ref))
}

export const updateAuthConfig = ({ ref, change }: { ref: string; change: ProjectAuthSettingsUpdate }) =>
  api<ProjectAuthSettings>(path(ref), { method: 'PATCH', body: change })

export function useUpdateAuthConfig() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: updateAuthConfig, onSuccess: (result, { ref }) => queryClient.setQueryData(projectAuthKeys.config(ref), result) })
}
