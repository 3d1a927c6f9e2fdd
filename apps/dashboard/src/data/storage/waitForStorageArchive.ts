import type { StorageArchive } from '@stratum/contracts'
import { isApiError } from '../api'
import { request } from '../request'

/** Spec: storage archive poll every 5 s. */
export const ARCHIVE_POLL_MS = 5000

/** GET /platform/storage/{ref}/archive: {} while building; an archive not found is treated as no file (the SQL editor spec's storage archive calls). */
export async function getStorageArchive(ref: string, signal?: AbortSignal): Promise<StorageArchive> {
  try {
    return await request('GET /platform/storage/{ref}/archive', { params: { ref }, signal })
  } catch (error) {
    if (isApiError(error, 404)) return {}
    throw error
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = window.setTimeout(resolve, ms)
    signal.addEventListener(
      'abort',
      () => {
        window.clearTimeout(timer)
        reject(signal.reason instanceof Error ? signal.reason : new DOMException('Aborted', 'AbortError'))
      },
      { once: true },
    )
  })

/**
 * Polls the archive (at once, then every 5 s) until it has a fileUrl, which it returns. A failed
 * build rejects with the server's message; aborting the signal stops the polling.
 */
export async function waitForStorageArchive(ref: string, signal: AbortSignal, intervalMs = ARCHIVE_POLL_MS): Promise<string> {
  for (;;) {
    const archive = await getStorageArchive(ref, signal)
    if (archive.fileUrl) return archive.fileUrl
    await sleep(intervalMs, signal)
  }
}
