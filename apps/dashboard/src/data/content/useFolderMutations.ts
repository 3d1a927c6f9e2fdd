import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Folder } from '@stratum/contracts'
import { api } from '../api'
import { contentPath } from './contentPath'
import { contentKeys } from './keys'
import { folderSection } from './snippetSection'

export const createFolder = ({ ref, name, parentId }: { ref: string; name: string; parentId?: string | null }) =>
  api<Folder>(contentPath(ref, '/folders'), { method: 'POST', body: { name, parentId: parentId ?? null } })

export const updateFolder = ({ ref, id, name }: { ref: string; id: string; name: string }) =>
  api<Folder>(contentPath(ref, `/folders/${encodeURIComponent(id)}`), { method: 'PUT', body: { name } })

export const deleteFolders = ({ ref, ids }: { ref: string; ids: string[] }) =>
  api<{ id: string }[]>(contentPath(ref, `/folders?ids=${ids.map(encodeURIComponent).join(',')}`), { method: 'DELETE' })

export function useCreateFolder() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: createFolder,
    onSuccess: (folder, { ref }) => {
      queryClient.setQueryData<Folder[]>(contentKeys.folders(ref), (list) => (list ? [...list, folder] : [folder]))
    },
  })
}

export function useUpdateFolder() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: updateFolder,
    onSuccess: (folder, { ref }) => {
      queryClient.setQueryData<Folder[]>(contentKeys.folders(ref), (list) => list?.map((f) => (f.id === folder.id ? folder : f)))
    },
  })
}

/**
 * Deleting a folder deletes the snippets it holds (server rule): the folder and its section leave
 * the caches at once (its section is not fetched again), then the rest of the content is refetched.
 */
export function useDeleteFolders() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: deleteFolders,
    onSuccess: (_deleted, { ref, ids }) => {
      queryClient.setQueryData<Folder[]>(contentKeys.folders(ref), (list) => list?.filter((f) => !ids.includes(f.id)))
      ids.forEach((id) => queryClient.removeQueries({ queryKey: contentKeys.list(ref, folderSection(id)), exact: true }))
      return queryClient.invalidateQueries({ queryKey: contentKeys.all(ref) })
    },
  })
}
