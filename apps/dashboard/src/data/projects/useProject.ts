import { useQuery } from '@tanstack/react-query'
import type { Project } from '@stratum/contracts'
import { api } from '../api'
import { projectKeys } from './keys'

export const getProject = (ref: string, signal?: AbortSignal) =>
  api<Project>(`/platform/projects/${encodeURIComponent(ref)}`, { signal })

export function useProject(ref: string | undefined) {
  return useQuery({
    queryKey: projectKeys.detail(ref ?? ''),
    queryFn: ({ signal }) => getProject(ref!, signal),
    enabled: Boolean(ref),
  })
}
