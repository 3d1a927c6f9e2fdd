import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { lifecycleKeys } from '../lifecycle/keys'
import { markOperationStarted } from '../lifecycle/markOperationStarted'
import { usageKeys } from './keys'

export interface UpgradeEligibility {
  eligible: boolean
  current_app_version: string
  target_upgrade_versions: { postgres_version: string; app_version: string }[]
  unsupported_extensions: string[]
  /** What stands in the way, each with `type` (the reference's kinds) and Stratum's plain-words `message`. */
  validation_errors: { type: string; message: string }[]
}

/** GET /v1/projects/{ref}/upgrade/eligibility: where the project may upgrade to, and what stands in the way. */
export const upgradeEligibilityQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: usageKeys.upgradeEligibility(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<UpgradeEligibility>(`/v1/projects/${encodeURIComponent(ref)}/upgrade/eligibility`, { signal }) : skipToken,
  })

export function useUpgradeEligibility(ref: string | undefined) {
  return useQuery(upgradeEligibilityQuery(ref))
}

/** Starts the major-version upgrade operation; the Upgrading screen takes over while it runs. */
export function useStartUpgrade() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ ref, targetVersion }: { ref: string; targetVersion: string }) =>
      api<{ tracking_id: string }>(`/v1/projects/${encodeURIComponent(ref)}/upgrade`, { method: 'POST', body: { target_version: targetVersion } }),
    onSuccess: async (_result, { ref }) => {
      await queryClient.invalidateQueries({ queryKey: lifecycleKeys.upgradeStatus(ref) })
      return markOperationStarted(queryClient, ref, 'UPGRADING')
    },
  })
}
