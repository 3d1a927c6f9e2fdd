import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ApiError, SERVER_UNREACHABLE } from '../api'
import { request, routeUrl, type RouteResponse } from '../request'
import { storageKeys } from './keys'

/** One entry of a folder listing, as storage-api answers it: folders have no id. */
export type { StorageItem } from '@stratum/contracts'

/** The largest page the storage API returns; the Storage page pages through a folder with it. */
export const OBJECTS_PAGE_SIZE = 1000

const encodePath = (path: string) => path.split('/').map(encodeURIComponent).join('/')

/**
 * Where the dashboard downloads (and previews) an object with the member's session: the platform's bridge to the
 * project's storage API (run as the platform after the member's permission check). `?download` has no value.
 */
export const objectDownloadUrl = (ref: string, bucket: string, path: string, download = false) =>
  `${routeUrl('GET /platform/storage/{ref}/objects/{bucket}/{...path}', { params: { ref, bucket, path } })}${download ? '?download' : ''}`

export const bucketObjectsQuery = (ref: string | undefined, bucket: string | undefined, prefix: string) =>
  queryOptions({
    queryKey: storageKeys.objects(ref ?? '', bucket ?? '', prefix),
    queryFn:
      ref && bucket
        ? ({ signal }) =>
            request('POST /platform/storage/{ref}/objects/list/{bucket}', {
              params: { ref, bucket },
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
      request('DELETE /platform/storage/{ref}/objects/{bucket}', { params: { ref, bucket }, body: { prefixes: paths } }),
    onSuccess: (_result, { ref, bucket }) => invalidate(ref, bucket),
  })
}

export function useMoveObject() {
  const invalidate = useInvalidateBucketObjects()
  return useMutation({
    mutationFn: ({ ref, bucket, from, to }: { ref: string; bucket: string; from: string; to: string }) =>
      request('POST /platform/storage/{ref}/objects/move', { params: { ref }, body: { bucketId: bucket, sourceKey: from, destinationKey: to } }),
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
  const { signedURL } = await request('POST /platform/storage/{ref}/objects/sign/{bucket}/{...path}', { params: { ref, bucket, path }, body: { expiresIn } })
  return encodeURI(`${apiUrl}/storage/v1${signedURL}`)
}

export const publicObjectUrl = (apiUrl: string, bucket: string, path: string) =>
  `${apiUrl}/storage/v1/object/public/${encodeURIComponent(bucket)}/${encodePath(path)}`

type UploadRoute = 'POST /platform/storage/{ref}/objects/{bucket}/{...path}'

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
export function uploadObject({ ref, bucket, path, file, upsert = false, onProgress, signal }: UploadInput): Promise<RouteResponse<UploadRoute>> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', routeUrl<UploadRoute>('POST /platform/storage/{ref}/objects/{bucket}/{...path}', { params: { ref, bucket, path } }))
    xhr.withCredentials = true
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
    xhr.setRequestHeader('x-upsert', String(upsert))
    xhr.upload.onprogress = (event) => onProgress?.(event.loaded, event.lengthComputable ? event.total : file.size)
    xhr.onload = () => {
      let body: { message?: string } & Record<string, unknown> = {}
      try {
        body = JSON.parse(xhr.responseText)
      } catch {
        // answered below
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as RouteResponse<UploadRoute>)
      else reject(new ApiError(typeof body.message === 'string' ? body.message : `Upload failed with status ${xhr.status}`, xhr.status))
    }
    xhr.onerror = () => reject(new ApiError(SERVER_UNREACHABLE, 0))
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(file)
  })
}
