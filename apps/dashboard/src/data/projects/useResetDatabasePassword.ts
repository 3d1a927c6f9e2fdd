import type { UpdateDatabasePasswordResponse } from '@stratum/contracts'
import { useMutation } from '@tanstack/react-query'
import { api } from '../api'

export const resetDatabasePassword = ({ ref, password }: { ref: string; password: string }) =>
  api<UpdateDatabasePasswordResponse>(`/platform/projects/${encodeURIComponent(ref)}/db-password`, {
    method: 'PATCH',
    body: { password },
  })

/** Sets a new password on the project's `postgres` role (owners and administrators). Nothing is cached. */
export function useResetDatabasePassword() {
  return useMutation({ mutationFn: resetDatabasePassword })
}
