import { useMutation } from '@tanstack/react-query'
import type { AiTitleBody, AiTitleResponse } from '@stratum/contracts'
import { api } from '../api'

/** POST /api/ai/sql/title-v2: a title and a description for a snippet, from its SQL. */
export const generateTitle = (body: AiTitleBody) => api<AiTitleResponse>('/api/ai/sql/title-v2', { method: 'POST', body })

export function useGenerateTitle() {
  return useMutation({ mutationFn: generateTitle })
}
