import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { PitrVariant } from '@stratum/contracts'
import { request } from '../request'
import { markOperationStarted } from '../lifecycle/markOperationStarted'
import { addonKeys } from './keys'

export interface PitrAddonVariables {
  projectRef: string
  variant: PitrVariant
  /** Whether the project had no PITR before: turning it on restarts the instance with WAL archiving. */
  turnsOn: boolean
}

/** Enables PITR or changes its retention (billing.write and the pro plan, checked by the server). */
export const applyPitrAddon = ({ projectRef, variant }: PitrAddonVariables) =>
  request('PATCH /v1/projects/{ref}/billing/addons', { params: { ref: projectRef }, body: { addon_type: 'pitr', addon_variant: variant } })

export function useApplyPitrAddon() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: applyPitrAddon,
    onSuccess: async (_result, { projectRef, turnsOn }) => {
      // The restart's screen shows at once; the status watcher follows it back to ACTIVE_HEALTHY.
      if (turnsOn) await markOperationStarted(queryClient, projectRef, 'RESTARTING')
      await queryClient.invalidateQueries({ queryKey: addonKeys.project(projectRef) })
    },
  })
}

/** Removes the add-on: the WAL archive is no longer kept and the recoverable window is gone. */
export const removeAddon = ({ projectRef, variant }: { projectRef: string; variant: string }) =>
  request('DELETE /v1/projects/{ref}/billing/addons/{addon_variant}', { params: { ref: projectRef, addon_variant: variant } })

export function useRemoveAddon() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: removeAddon,
    onSuccess: (_result, { projectRef }) => queryClient.invalidateQueries({ queryKey: addonKeys.project(projectRef) }),
  })
}
