import { useCallback, useState } from 'react'
import { errorMessage } from '../../data/api'
import { uploadObject, useInvalidateBucketObjects } from '../../data/storage/objects'
import { joinPath } from './objectPaths'

export interface UploadState {
  id: number
  name: string
  loaded: number
  total: number
  status: 'uploading' | 'done' | 'failed'
  error?: string
}

let nextId = 1

/**
 * Files picked or dropped on the Storage page, uploaded one after another into the open folder, each
 * with its progress; the folder's listing refreshes after each file.
 */
export function useUploads(ref: string | undefined, bucket: string | undefined) {
  const invalidate = useInvalidateBucketObjects()
  const [uploads, setUploads] = useState<UploadState[]>([])
  const update = (id: number, change: Partial<UploadState>) => setUploads((all) => all.map((upload) => (upload.id === id ? { ...upload, ...change } : upload)))

  const start = useCallback(
    async (files: File[], folder: string) => {
      if (!ref || !bucket) return
      const queued = files.map((file) => ({
        file,
        state: {
          id: nextId++,
          name: file.name,
          loaded: 0,
          total: file.size,
          status: 'uploading' as const,
        },
      }))
      setUploads((all) => [...all.filter((upload) => upload.status === 'uploading'), ...queued.map((entry) => entry.state)])
      for (const { file, state } of queued) {
        try {
          await uploadObject({
            ref,
            bucket,
            path: joinPath(folder, file.name),
            file,
            onProgress: (loaded, total) => update(state.id, { loaded, total }),
          })
          update(state.id, { status: 'done', loaded: file.size })
        } catch (error) {
          update(state.id, { status: 'failed', error: errorMessage(error) })
        }
        await invalidate(ref, bucket)
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [ref, bucket],
  )

  const clearFinished = () => setUploads((all) => all.filter((upload) => upload.status === 'uploading'))
  return { uploads, start, clearFinished }
}
