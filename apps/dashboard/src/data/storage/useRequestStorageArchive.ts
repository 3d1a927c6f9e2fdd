import { useMutation } from '@tanstack/react-query'
import { request } from '../request'

/** POST /platform/storage/{ref}/archive: starts building a zip of every bucket (201 {}). */
export const requestStorageArchive = ({ ref }: { ref: string }) =>
  request('POST /platform/storage/{ref}/archive', { params: { ref } })

export function useRequestStorageArchive() {
  return useMutation({ mutationFn: requestStorageArchive })
}
