import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { AddedMember, OrgRole } from '@stratum/contracts'
import { api } from '../api'
import { memberKeys } from './keys'

export interface AddMemberVariables {
  slug: string
  email: string
  role: OrgRole
}

export const addMember = ({ slug, ...body }: AddMemberVariables) =>
  api<AddedMember>(`/platform/organizations/${encodeURIComponent(slug)}/members`, { method: 'POST', body })

export function useAddMember() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: addMember,
    onSuccess: (_added, { slug }) => queryClient.invalidateQueries({ queryKey: memberKeys.list(slug) }),
  })
}
