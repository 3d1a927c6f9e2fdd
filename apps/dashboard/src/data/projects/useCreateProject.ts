import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { ComputeSize, PostgresMajor } from '@stratum/contracts'
import { request } from '../request'
import { projectKeys } from './keys'

export interface CreateProjectVariables {
  name: string
  organization_slug: string
  db_pass: string
  postgres_engine?: PostgresMajor
  desired_instance_size?: ComputeSize
}

export const createProject = (body: CreateProjectVariables) =>
  request('POST /platform/projects', { body })

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
