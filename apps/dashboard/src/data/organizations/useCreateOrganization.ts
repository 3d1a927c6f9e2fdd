import { useMutation, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { profileKeys } from '../profile/keys'
import { organizationKeys } from './keys'

export const createOrganization = (body: { name: string }) =>
  request('POST /platform/organizations', { body })

export function useCreateOrganization() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createOrganization,
    onSuccess: async () => {
      // The creator becomes its owner: permissions change along with the list.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: organizationKeys.all }),
        queryClient.invalidateQueries({ queryKey: profileKeys.permissions() }),
      ])
    },
  })
}
