import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { api, ApiError } from '../api'
import { storageKeys } from './keys'

/** One entry of a folder listing, as storage-api answers it: folders have no id. */
export interface StorageItem {
  name: string
  id: string | null
  updated_at: string | null
  created_at: string | null
  last_accessed_at: string | null
  metadata: { size?: number; mimetype?: string; cacheControl?: string } | null
}

/** The largest page the storage API returns; the Storage page pages through a folder with it. */
export const OBJECTS_PAGE_SIZE = 1000

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/')

/** The platform's bridge to the project's storage API (run as the platform after the member's permission check). */
export const objectsUrl = (ref: string, rest: string) => `/platform/storage/${encodeURIComponent(ref)}/objects/${rest}`

/** Where the dashboard downloads (and previews) an object with the member's session. */
export const objectDownloadUrl = (ref: string, bucket: string, path: string, download = false) =>
  objectsUrl(ref, `${encodeURIComponent(bucket)}/${encodePath(path)}${download ? '?download' : ''}`)

export const bucketObjectsQuery = (ref: string | undefined, bucket: string | undefined, prefix: string) =>
  queryOptions({
    queryKey: storageKeys.objects(ref ?? '', bucket ?? '', prefix),
    queryFn:
      ref && bucket
        ? ({ signal }) =>
            api<StorageItem[]>(objectsUrl(ref, `list/${encodeURIComponent(bucket)}`), {
              method: 'POST',
              body: {
                prefix,
                limit: OBJECTS_PAGE_SIZE,
                offset: 0,
                sortBy: { column: 'name', order: 'asc' },
              },
              signal,
            })
        : skipToken,
  })

/** One folder level of a bucket: folders first, then files, by name. */
export function useBucketObjects(ref: string | undefined, bucket: string | undefined, prefix: string) {
  return useQuery(bucketObjectsQuery(ref, bucket, prefix))
}

/** Refetches every listed folder of a bucket (after uploads, deletes, moves). */
export function useInvalidateBucketObjects() {
  const queryClient = useQueryClient()
  return (ref: string, bucket: string) =>
    queryClient.invalidateQueries({
      queryKey: storageKeys.bucketObjects(ref, bucket),
    })
}

export function useDeleteObjects() {
  const invalidate = useInvalidateBucketObjects()
  return useMutation({
    mutationFn: ({ ref, bucket, paths }: { ref: string; bucket: string; paths: string[] }) =>
      api<{ name: string }[]>(objectsUrl(ref, encodeURIComponent(bucket)), {
        method: 'DELETE',
        body: { prefixes: paths },
      }),
    onSuccess: (_result, { ref, bucket }) => invalidate(ref, bucket),
  })
}

export function useMoveObject() {
  const invalidate = useInvalidateBucketObjects()
  return useMutation({
    mutationFn: ({ ref, bucket, from, to }: { ref: string; bucket: string; from: string; to: string }) =>
      api<{ message: string }>(objectsUrl(ref, 'move'), {
        method: 'POST',
        body: { bucketId: bucket, sourceKey: from, destinationKey: to },
      }),
    onSuccess: (_result, { ref, bucket }) => invalidate(ref, bucket),
  })
}

/** A folder is kept by an empty placeholder object, as Supabase's dashboard does. */
export const FOLDER_PLACEHOLDER = '.emptyFolderPlaceholder'

export function useCreateFolder() {
  const invalidate = useInvalidateBucketObjects()
  return useMutation({
    mutationFn: ({ ref, bucket, path }: { ref: string; bucket: string; path: string }) =>
      uploadObject({
        ref,
        bucket,
        path: `${path}/${FOLDER_PLACEHOLDER}`,
        file: new Blob([], { type: 'application/octet-stream' }),
      }),
    onSuccess: (_result, { ref, bucket }) => invalidate(ref, bucket),
  })
}

/** A signed download URL on the project's API, valid for `expiresIn` seconds. */
export async function signObjectUrl(ref: string, apiUrl: string, bucket: string, path: string, expiresIn: number): Promise<string> {
  const { signedURL } = await api<{ signedURL: string }>(objectsUrl(ref, `sign/${encodeURIComponent(bucket)}/${encodePath(path)}`), {
    method: 'POST',
    body: { expiresIn },
  })
  return encodeURI(`${apiUrl}/storage/v1${signedURL}`)
}

export const publicObjectUrl = (apiUrl: string, bucket: string, path: string) =>
  `${apiUrl}/storage/v1/object/public/${encodeURIComponent(bucket)}/${encodePath(path)}`

interface UploadInput {
  ref: string
  bucket: string
  path: string
  file: Blob
  upsert?: boolean
  onProgress?: (loaded: number, total: number) => void
  signal?: AbortSignal
}

/**
 * Uploads one file as its raw body. XMLHttpRequest rather than fetch: it reports upload progress.
 * Errors carry the storage API's message.
 */
export function uploadObject({ ref, bucket, path, file, upsert = false, onProgress, signal }: UploadInput): Promise<{ Id: string; Key: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest()
    request.open('POST', objectDownloadUrl(ref, bucket, path))
    request.withCredentials = true
    request.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
    request.setRequestHeader('x-upsert', String(upsert))
    request.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size)
    request.onload = () => {
      let body: { message?: string } & Record<string, unknown> = {}
      try {
        body = JSON.parse(request.responseText)
      } catch {
        // answered below
      }
      if (request.status >= 200 && request.status < 300) resolve(body as { Id: string; Key: string })
      else reject(new ApiError(typeof body.message === 'string' ? body.message : `Upload failed with status ${request.status}`, request.status))
    }
    request.onerror = () => reject(new ApiError('Cannot reach the Stratum server. Check your connection and try again.', 0))
    request.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'))
    signal?.addEventListener('abort', () => request.abort(), { once: true })
    request.send(file)
  })
}
