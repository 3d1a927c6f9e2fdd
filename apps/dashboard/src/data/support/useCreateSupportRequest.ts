import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { SUPPORT_CATEGORIES } from '@stratum/contracts'
import { request } from '../request'
import { supportKeys } from './keys'

/** The contracts export the schema but no type for it. */
export type SupportCategoryName = (typeof SUPPORT_CATEGORIES)[number]

export interface CreateSupportRequestVariables {
  category: SupportCategoryName
  project_ref?: string | null
  subject: string
  message: string
}

export const createSupportRequest = (body: CreateSupportRequestVariables) =>
  request('POST /platform/support/requests', { body })

export function useCreateSupportRequest() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createSupportRequest,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: supportKeys.requests() }),
  })
}
