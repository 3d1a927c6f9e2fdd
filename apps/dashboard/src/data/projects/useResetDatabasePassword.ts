import { useMutation } from '@tanstack/react-query'
import { request } from '../request'

export const resetDatabasePassword = ({ ref, password }: { ref: string; password: string }) =>
  request('PATCH /platform/projects/{ref}/db-password', { params: { ref }, body: { password } })

/** Sets a new password on the project's `postgres` role (owners and administrators). Nothing is cached. */
export function useResetDatabasePassword() {
  return useMutation({ mutationFn: resetDatabasePassword })
}
