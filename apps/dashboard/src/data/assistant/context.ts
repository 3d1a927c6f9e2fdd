import type { AssistantProjectContext } from '@stratum/contracts'
import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { api } from '../api'
import { assistantKeys } from './keys'

/** What the assistant may see of a project: the organization's opt-in level, HIPAA, the installation's switch. */
export const assistantContextQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: assistantKeys.context(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<AssistantProjectContext>(`/platform/projects/${encodeURIComponent(ref)}/assistant`, { signal }) : skipToken,
  })

export const useAssistantContext = (ref: string | undefined) => useQuery(assistantContextQuery(ref))
