import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { PostgrestConfigResponse, PostgrestConfigUpdateBody } from '@stratum/contracts'
import { request } from '../request'
import { postgrestConfigKeys } from './keys'

export interface UpdatePostgrestConfigVariables {
  ref: string
  change: PostgrestConfigUpdateBody
}

export const updatePostgrestConfig = ({ ref, change }: UpdatePostgrestConfigVariables) =>
  request('PATCH /platform/projects/{ref}/config/postgrest', { params: { ref }, body: change })

export function useUpdatePostgrestConfig() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updatePostgrestConfig,
    onSuccess: (result, { ref }) => queryClient.setQueryData(postgrestConfigKeys.detail(ref), (previous: PostgrestConfigResponse | undefined) => ({ ...previous, ...result })),
  })
}
