import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import { request } from '../request'
import { projectKeys } from './keys'

export const getProject = (ref: string, signal?: AbortSignal) =>
  request('GET /platform/projects/{ref}', { params: { ref }, signal })

export const projectQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: projectKeys.detail(ref ?? ''),
    queryFn: ref ? ({ signal }) => getProject(ref, signal) : skipToken,
  })

export function useProject(ref: string | undefined) {
  return useQuery(projectQuery(ref))
}
