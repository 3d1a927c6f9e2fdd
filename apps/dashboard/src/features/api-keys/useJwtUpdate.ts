import { API_KEY_TEXTS, JWT_SECRET_UPDATE_STATUS } from '@stratum/contracts'
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { useToast } from '../../components/ui/Toast'
import { apiKeyKeys } from '../../data/api-keys/keys'
import { useJwtSecretUpdateStatus } from '../../data/api-keys/useJwtSecretUpdateStatus'

export type JwtUpdateState = 'none' | 'updating' | 'updated' | 'failed' | 'unknown'

/**
 * The project's JWT secret update, seen by the API settings panels: its state, why keys cannot be
 * copied or revealed right now, and (once, for an update watched here) the outcome's toast and
 * the new keys.
 */
export function useJwtUpdate(ref: string) {
  const query = useJwtSecretUpdateStatus(ref)
  const toast = useToast()
  const queryClient = useQueryClient()
  const update = query.data?.update_status ?? null
  const state: JwtUpdateState = query.isPending
    ? 'unknown'
    : query.isError
      ? 'unknown'
      : update === null
        ? 'none'
        : update.status === JWT_SECRET_UPDATE_STATUS.Updating
          ? 'updating'
          : update.status === JWT_SECRET_UPDATE_STATUS.Updated
            ? 'updated'
            : 'failed'

  const watching = useRef<string | null>(null)
  useEffect(() => {
    if (!update) return
    if (update.status === JWT_SECRET_UPDATE_STATUS.Updating) {
      watching.current = update.change_tracking_id
      return
    }
    if (watching.current !== update.change_tracking_id) return
    watching.current = null
    void queryClient.invalidateQueries({ queryKey: apiKeyKeys.settings(ref) })
    if (update.status === JWT_SECRET_UPDATE_STATUS.Updated) toast.success('Successfully updated JWT secret', 'New API keys were signed with it.')
    else toast.error(API_KEY_TEXTS.updateFailedKeys, update.error ?? undefined)
  }, [update, ref, queryClient, toast])

  const lockedReason =
    state === 'updating'
      ? API_KEY_TEXTS.updating
      : state === 'failed'
        ? API_KEY_TEXTS.updateFailedKeys
        : state === 'unknown'
          ? query.isError
            ? API_KEY_TEXTS.fetchConfigFailed
            : 'Checking the JWT secret…'
          : undefined

  return { query, update, state, lockedReason }
}
