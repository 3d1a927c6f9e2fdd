import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ComputeSize, PostgresMajor, Project } from '@stratum/contracts'
import { api } from '../api'
import { projectKeys } from './keys'

export interface CreateProjectVariables {
  name: string
  organization_slug: string
  db_pass: string
  postgres_engine?: PostgresMajor
  desired_instance_size?: ComputeSize
}

export const createProject = (body: CreateProjectVariables) =>
  api<Project>('/platform/projects', { method: 'POST', body })

export function useCreateProject() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createProject,
    onSuccess: (project) => {
      queryClient.setQueryData(projectKeys.detail(project.ref), project)
      return queryClient.invalidateQueries({ queryKey: projectKeys.lists() })
    },
  })
}
