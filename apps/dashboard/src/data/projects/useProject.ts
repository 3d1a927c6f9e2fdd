import { queryOptions, skipToken, useQuery } from '@tanstack/react-query'
import type { Project } from '@stratum/contracts'
import { api } from '../api'
import { projectKeys } from './keys'

export const getProject = (ref: string, signal?: AbortSignal) =>
  api<Project>(`/platform/projects/${encodeURIComponent(ref)}`, { signal })

export const projectQuery = (ref: string | undefined) =>
  queryOptions({
    queryKey: projectKeys.detail(ref ?? ''),
    queryFn: ref ? ({ signal }) => getProject(ref, signal) : skipToken,
  })

export function useProject(ref: string | undefined) {
  return useQuery(projectQuery(ref))
}
