import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Plan } from '@stratum/contracts'
import { request } from '../request'
import { organizationKeys } from './keys'

export const updateSubscription = ({ slug, plan }: { slug: string; plan: Plan }) =>
  request('PUT /platform/organizations/{slug}/billing/subscription', { params: { slug }, body: { plan } })

export function useUpdateSubscription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  })
}
