import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AiOptInLevel } from '@stratum/contracts'
import { request } from '../request'
import { organizationKeys } from './keys'

/** A rename, a new assistant opt-in level, or both. */
export const updateOrganization = ({ slug, ...change }: { slug: string; name?: string; ai_opt_in_level?: AiOptInLevel }) =>
  request('PATCH /platform/organizations/{slug}', { params: { slug }, body: change })

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
