import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { JwtSecretUpdateBody, JwtSecretUpdateStatus } from '@stratum/contracts'
import { api } from '../api'
import { apiKeyKeys } from './keys'

export interface UpdateJwtSecretVariables extends JwtSecretUpdateBody {
  ref: string
}

/** Starts a JWT secret update (a generated secret unless one is given); it then runs on the server. */
export const updateJwtSecret = ({ ref, ...body }: UpdateJwtSecretVariables) =>
  api<JwtSecretUpdateStatus>(`/platform/projects/${encodeURIComponent(ref)}/config/secrets`, { method: 'POST', body })

export function useUpdateJwtSecret() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateJwtSecret,
    // The answer is the update's first status (Updating): the status query polls from there.
    onSuccess: (status, { ref }) => queryClient.setQueryData(apiKeyKeys.updateStatus(ref), status),
  })
}
