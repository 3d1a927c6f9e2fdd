import { useMutation } from '@tanstack/react-query'
import type { TypescriptResponse } from '@stratum/contracts'
import { api } from '../api'

export const generateTypescriptTypes = ({ ref, includedSchemas = ['public'] }: { ref: string; includedSchemas?: string[] }) =>
  api<TypescriptResponse>(
    `/v1/projects/${encodeURIComponent(ref)}/types/typescript?included_schemas=${encodeURIComponent(includedSchemas.join(','))}`,
  )

/** Generates the project's TypeScript types (the `Database` type for supabase-js). */
export function useGenerateTypes() {
  return useMutation({ mutationFn: generateTypescriptTypes })
}
