import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { FunctionDeployMetadata, FunctionFile, FunctionResponse } from '@stratum/contracts'
import { ApiError } from '../api'
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
 * and one 'file' part per file (its name as the filename). The JSON helper in ../api cannot send
 * a form, so this fetch maps errors the same way (the server's {message}).
 */
export async function deployFunction({ ref, slug, metadata, files }: DeployFunctionInput): Promise<FunctionResponse> {
  const form = new FormData()
  form.append('metadata', JSON.stringify(metadata))
  for (const file of files) form.append('file', new Blob([file.content], { type: 'application/typescript' }), file.name)
  let response: Response
  try {
    response = await fetch(routeUrl('POST /v1/projects/{ref}/functions/deploy', { params: { ref }, query: { slug } }), {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
      body: form,
    })
  } catch {
    throw new ApiError('Cannot reach the Stratum server. Check your connection and try again.', 0)
  }
  const payload: unknown = await response.json().catch(() => undefined)
  if (!response.ok) {
    const message =
      payload && typeof payload === 'object' && 'message' in payload && typeof payload.message === 'string' ? payload.message : ''
    throw new ApiError(message, response.status)
  }
  return payload as FunctionResponse
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
