import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { InstallationSettings } from '@stratum/contracts'
import { request } from '../request'
import { organizationKeys } from './keys'

/** Who may create organizations and change plans, and whether the caller is the installation's owner. */
export function useInstallationSettings() {
  return useQuery({
    queryKey: organizationKeys.installationSettings(),
    queryFn: ({ signal }) => request('GET /platform/installation/settings', { signal }),
    staleTime: 60_000,
  })
}

export function useUpdateInstallationSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (changes: Partial<InstallationSettings>) =>
      request('PATCH /platform/installation/settings', { body: changes }),
    onSuccess: (view) => queryClient.setQueryData(organizationKeys.installationSettings(), view),
  })
}
