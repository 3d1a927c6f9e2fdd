import { useMutation } from '@tanstack/react-query'
import type { AiTitleBody } from '@stratum/contracts'
import { request } from '../request'

/** POST /api/ai/sql/title-v2: a title and a description for a snippet, from its SQL. */
export const generateTitle = (body: AiTitleBody) => request('POST /api/ai/sql/title-v2', { body })

export function useGenerateTitle() {
  return useMutation({ mutationFn: generateTitle })
}
