import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Organization } from '@stratum/contracts'
import { api } from '../api'
import { organizationKeys } from './keys'

export const updateOrganization = ({ slug, name }: { slug: string; name: string }) =>
  api<Organization>(`/platform/organizations/${encodeURIComponent(slug)}`, { method: 'PATCH', body: { name } })

export function useUpdateOrganization() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateOrganization,
    onSuccess: (organization) => {
      queryClient.setQueryData(organizationKeys.detail(organization.slug), organization)
      return queryClient.invalidateQueries({ queryKey: organizationKeys.list() })
    },
  })
}
