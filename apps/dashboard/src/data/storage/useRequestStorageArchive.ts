import { useMutation } from '@tanstack/react-query'
import { api } from '../api'

/** POST /platform/storage/{ref}/archive: starts building a zip of every bucket (201 {}). */
export const requestStorageArchive = ({ ref }: { ref: string }) =>
  api<Record<string, never>>(`/platform/storage/${encodeURIComponent(ref)}/archive`, { method: 'POST' })

export function useRequestStorageArchive() {
  return useMutation({ mutationFn: requestStorageArchive })
}
