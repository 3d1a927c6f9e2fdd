import { useQuery } from '@tanstack/react-query'
import type { Folder } from '@stratum/contracts'
import { api } from '../api'
import { contentPath } from './contentPath'
import { contentKeys } from './keys'

export const getFolders = (ref: string, signal?: AbortSignal) =>
  api<{ data: { folders: Folder[] } }>(contentPath(ref, '/folders?type=sql'), { signal }).then((page) => page.data.folders)

export function useFolders(ref: string) {
  return useQuery({ queryKey: contentKeys.folders(ref), queryFn: ({ signal }) => getFolders(ref, signal), enabled: Boolean(ref) })
}
