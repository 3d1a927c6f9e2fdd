import { useCallback, useEffect, useState } from 'react'
import { errorMessage } from '../../data/api'
import { copyText } from '../../lib/clipboard'
import { useToast } from './Toast'

/** How long a copy control says 'Copied' before it reads 'Copy' again (the API docs spec: 2000 ms). */
export const COPY_FEEDBACK_MS = 2000

/**
 * Copies text and remembers for COPY_FEEDBACK_MS that it did (`copied`), for a control that says so.
 * A failure is told in a toast; `copy` resolves to whether the text reached the clipboard.
 */
export function useCopyToClipboard() {
  const toast = useToast()
  const [copied, setCopied] = useState(false)

  useEffect(() => {
    if (!copied) return
    const timer = window.setTimeout(() => setCopied(false), COPY_FEEDBACK_MS)
    return () => window.clearTimeout(timer)
  }, [copied])

  const copy = useCallback(
    async (text: string): Promise<boolean> => {
      try {
        await copyText(text)
        setCopied(true)
        return true
      } catch (error) {
        toast.error('Could not copy to the clipboard', errorMessage(error))
        return false
      }
    },
    [toast],
  )

  return { copied, copy }
}
