import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { JwtSecretUpdateBody } from '@stratum/contracts'
import { request } from '../request'
import { apiKeyKeys } from './keys'

export interface UpdateJwtSecretVariables extends JwtSecretUpdateBody {
  ref: string
}

/** Starts a JWT secret update (a generated secret unless one is given); it then runs on the server. */
export const updateJwtSecret = ({ ref, ...body }: UpdateJwtSecretVariables) =>
  request('POST /platform/projects/{ref}/config/secrets', { params: { ref }, body })

export function useUpdateJwtSecret() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateJwtSecret,
    // The answer is the update's first status (Updating): the status query polls from there.
    onSuccess: (status, { ref }) => queryClient.setQueryData(apiKeyKeys.updateStatus(ref), status),
  })
}
