import { useMutation } from '@tanstack/react-query'
import { request } from '../request'

export const generateTypescriptTypes = ({ ref, includedSchemas = ['public'] }: { ref: string; includedSchemas?: string[] }) =>
  request('GET /v1/projects/{ref}/types/typescript', { params: { ref }, query: { included_schemas: includedSchemas.join(',') } })

/** Generates the project's TypeScript types (the `Database` type for supabase-js). */
export function useGenerateTypes() {
  return useMutation({ mutationFn: generateTypescriptTypes })
}
