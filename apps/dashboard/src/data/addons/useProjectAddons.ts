import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { ProjectAddons } from '@stratum/contracts'
import { request } from '../request'
import { addonKeys } from './keys'

export const getProjectAddons = (ref: string, signal?: AbortSignal) =>
  request('GET /v1/projects/{ref}/billing/addons', { params: { ref }, signal })

export const projectAddonsQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: addonKeys.list(ref ?? ''),
    queryFn: ref ? ({ signal }) => getProjectAddons(ref, signal) : skipToken,
  })

export function useProjectAddons(ref: string | undefined) {
  return useQuery(projectAddonsQuery(ref))
}

type AddonVariant = ProjectAddons['selected_addons'][number]['variant']

/** The PITR variant the project has (pitr_7, pitr_14 or pitr_28), or undefined when it has none. */
export function selectedPitr(addons: ProjectAddons | undefined): AddonVariant | undefined {
  return addons?.selected_addons.find((addon) => addon.type === 'pitr')?.variant
}

/** The PITR variants on offer, with their prices. */
export function availablePitrVariants(addons: ProjectAddons | undefined): AddonVariant[] {
  return addons?.available_addons.find((addon) => addon.type === 'pitr')?.variants ?? []
}

/** Whether the project has point-in-time recovery; undefined while unknown. */
export function useHasPitr(ref: string | undefined): boolean | undefined {
  const { data } = useProjectAddons(ref)
  return data ? selectedPitr(data) !== undefined : undefined
}
