import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { lifecycleKeys } from '../lifecycle/keys'
import { markOperationStarted } from '../lifecycle/markOperationStarted'
import { usageKeys } from './keys'

export type { UpgradeEligibility } from '@stratum/contracts'

/** GET /v1/projects/{ref}/upgrade/eligibility: where the project may upgrade to, and what stands in the way. */
export const upgradeEligibilityQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: usageKeys.upgradeEligibility(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /v1/projects/{ref}/upgrade/eligibility', { params: { ref }, signal }) : skipToken,
  })

export function useUpgradeEligibility(ref: string | undefined) {
  return useQuery(upgradeEligibilityQuery(ref))
}

/** Starts the major-version upgrade operation; the Upgrading screen takes over while it runs. */
export function useStartUpgrade() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ ref, targetVersion }: { ref: string; targetVersion: string }) =>
      request('POST /v1/projects/{ref}/upgrade', { params: { ref }, body: { target_version: targetVersion } }),
    onSuccess: async (_result, { ref }) => {
      await queryClient.invalidateQueries({ queryKey: lifecycleKeys.upgradeStatus(ref) })
      return markOperationStarted(queryClient, ref, 'UPGRADING')
    },
  })
}
