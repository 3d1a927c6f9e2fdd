import type { AssistantProjectContext } from '@stratum/contracts'
import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api } from '../api'
import { assistantKeys } from './keys'

/** What the assistant may see of a project: the organization's opt-in level, HIPAA, the installation's switch. */
export const assistantContextQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: assistantKeys.context(ref ?? ''),
    queryFn: ref ? ({ signal }) => api<AssistantProjectContext>(`/platform/projects/${encodeURIComponent(ref)}/assistant`, { signal }) : skipToken,
  })

export const useAssistantContext = (ref: string | undefined) => useQuery(assistantContextQuery(ref))

/** PATCH /platform/projects/{ref}/assistant: the project's HIPAA setting (projects.update). */
export function useUpdateAssistantProject(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (isHipaa: boolean) =>
      api<AssistantProjectContext>(`/platform/projects/${encodeURIComponent(ref)}/assistant`, { method: 'PATCH', body: { is_hipaa: isHipaa } }),
    onSuccess: (context) => queryClient.setQueryData(assistantKeys.context(ref), context),
  })
}
