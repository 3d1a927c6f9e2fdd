import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Folder } from '@stratum/contracts'
import { request } from '../request'
import { contentKeys } from './keys'
import { folderSection } from './snippetSection'

export const createFolder = ({ ref, name, parentId }: { ref: string; name: string; parentId?: string | null }) =>
  request('POST /platform/projects/{ref}/content/folders', { params: { ref }, body: { name, parentId: parentId ?? null } })

export const updateFolder = ({ ref, id, name }: { ref: string; id: string; name: string }) =>
  request('PUT /platform/projects/{ref}/content/folders/{id}', { params: { ref, id }, body: { name } })

export const deleteFolders = ({ ref, ids }: { ref: string; ids: string[] }) =>
  request('DELETE /platform/projects/{ref}/content/folders', { params: { ref }, query: { ids: ids.join(',') } })

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
