import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { InstallationSettings, InstallationSettingsView } from '@stratum/contracts'
import { api } from '../api'
import { organizationKeys } from './keys'

const PATH = '/platform/installation/settings'

/** Who may create organizations and change plans, and whether the caller is the installation's owner. */
export function useInstallationSettings() {
  return useQuery({
    queryKey: organizationKeys.installationSettings(),
    queryFn: ({ signal }) => api<InstallationSettingsView>(PATH, { signal }),
    staleTime: 60_000,
  })
}

export function useUpdateInstallationSettings() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (changes: Partial<InstallationSettings>) =>
      api<InstallationSettingsView>(PATH, { method: 'PATCH', body: changes }),
    onSuccess: (view) => queryClient.setQueryData(organizationKeys.installationSettings(), view),
  })
}
