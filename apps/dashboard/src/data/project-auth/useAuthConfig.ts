import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ProjectAuthSettingsUpdate } from '@stratum/contracts'
import { request } from '../request'
import { projectAuthKeys } from './keys'

export const authConfigQuery = (ref: string) =>
  queryOptions({ queryKey: projectAuthKeys.config(ref), queryFn: ({ signal }) => request('GET /platform/auth/{ref}/config', { params: { ref }, signal }) })

/** The project's auth settings (sign-up, providers, URLs, token lifetime, rate limits). */
export function useAuthConfig(ref: string) {
  return useQuery(authConfigQuery(ref))
}

export const updateAuthConfig = ({ ref, change }: { ref: string; change: ProjectAuthSettingsUpdate }) =>
  request('PATCH /platform/auth/{ref}/config', { params: { ref }, body: change })

export function useUpdateAuthConfig() {
  const queryClient = useQueryClient()
  return useMutation({ mutationFn: updateAuthConfig, onSuccess: (result, { ref }) => queryClient.setQueryData(projectAuthKeys.config(ref), result) })
}
