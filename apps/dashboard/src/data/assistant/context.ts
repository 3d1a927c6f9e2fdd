import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { request } from '../request'
import { assistantKeys } from './keys'

/** What the assistant may see of a project: the organization's opt-in level, HIPAA, the installation's switch. */
export const assistantContextQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: assistantKeys.context(ref ?? ''),
    queryFn: ref ? ({ signal }) => request('GET /platform/projects/{ref}/assistant', { params: { ref }, signal }) : skipToken,
  })

export const useAssistantContext = (ref: string | undefined) => useQuery(assistantContextQuery(ref))

/** PATCH /platform/projects/{ref}/assistant: the project's HIPAA setting (projects.update). */
export function useUpdateAssistantProject(ref: string) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (isHipaa: boolean) =>
      request('PATCH /platform/projects/{ref}/assistant', { params: { ref }, body: { is_hipaa: isHipaa } }),
    onSuccess: (context) => queryClient.setQueryData(assistantKeys.context(ref), context),
  })
}
