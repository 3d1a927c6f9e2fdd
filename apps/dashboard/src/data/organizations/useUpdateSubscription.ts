import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Plan } from '@stratum/contracts'
import { api } from '../api'
import { organizationKeys } from './keys'

export const updateSubscription = ({ slug, plan }: { slug: string; plan: Plan }) =>
  api<unknown>(`/platform/organizations/${encodeURIComponent(slug)}/billing/subscription`, {
    method: 'PUT',
    body: { plan },
  })

export function useUpdateSubscription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateSubscription,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
  })
}
