import { useEffect, useRef, useState } from 'react'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { requestStorageArchive } from '../../data/storage/useRequestStorageArchive'
import { waitForStorageArchive } from '../../data/storage/waitForStorageArchive'
import { startDownload } from '../../lib/download'
import { STORAGE_TEXTS } from './texts'

/** The server's message without the title's words repeated ('Failed to create storage archive: x' -> 'x'). */
const detail = (error: unknown) => errorMessage(error).replace(new RegExp(`^${STORAGE_TEXTS.archiveFailed}:?\\s*`), '') || undefined

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError'

/**
 * The SQL editor spec's storage archive flow: on request a toast says the archive is being prepared, the archive is polled every
 * 5 s until it has a fileUrl, then the browser downloads it. Failures: 'Failed to create storage archive'.
 * Leaving the page stops the polling.
 */
export function useArchiveDownload(ref: string) {
  const toast = useToast()
  const [busy, setBusy] = useState(false)
  const controller = useRef<AbortController | null>(null)
  useEffect(() => () => controller.current?.abort(), [])

  const start = async () => {
    controller.current?.abort()
    const current = new AbortController()
    controller.current = current
    setBusy(true)
    toast.info(STORAGE_TEXTS.archivePreparing, STORAGE_TEXTS.archivePreparingBody)
    try {
      await requestStorageArchive({ ref })
      const fileUrl = await waitForStorageArchive(ref, current.signal)
      startDownload(fileUrl)
      toast.success(STORAGE_TEXTS.archiveReady)
    } catch (error) {
      if (!isAbort(error)) toast.error(STORAGE_TEXTS.archiveFailed, detail(error))
    } finally {
      if (controller.current === current) {
        controller.current = null
        if (!current.signal.aborted) setBusy(false)
      }
    }
  }

  return { start: () => void start(), busy }
}
