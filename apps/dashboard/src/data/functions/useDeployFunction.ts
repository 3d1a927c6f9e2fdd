import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { FunctionDeployMetadata, FunctionFile, FunctionResponse } from '@stratum/contracts'
import { api } from '../api'
import { routeUrl } from '../request'
import { functionKeys } from './keys'

export interface DeployFunctionInput {
  ref: string
  slug: string
  metadata: FunctionDeployMetadata
  files: FunctionFile[]
}

/**
 * POST /v1/projects/{ref}/functions/deploy?slug=: a multipart form with a 'metadata' JSON field
 * and one 'file' part per file (its name as the filename).
 */
export async function deployFunction({ ref, slug, metadata, files }: DeployFunctionInput): Promise<FunctionResponse> {
  const form = new FormData()
  form.append('metadata', JSON.stringify(metadata))
  for (const file of files) form.append('file', new Blob([file.content], { type: 'application/typescript' }), file.name)
  return api<FunctionResponse>(routeUrl('POST /v1/projects/{ref}/functions/deploy', { params: { ref }, query: { slug } }), { method: 'POST', form })
}

/** Deploys (or replaces, with a new version) an edge function, then refreshes the lists. */
export function useDeployFunction() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deployFunction,
    onSuccess: (deployed, { ref }) => {
      queryClient.setQueryData(functionKeys.detail(ref, deployed.slug), deployed)
      void queryClient.invalidateQueries({ queryKey: functionKeys.project(ref) })
    },
  })
}
