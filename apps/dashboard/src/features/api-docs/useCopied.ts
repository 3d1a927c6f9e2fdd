import { useEffect, useState } from 'react'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { copyText } from '../../lib/clipboard'

/** The spec's copy feedback: 'Copied' for 2000 ms, then idle again. */
export const COPY_FEEDBACK_MS = 2000

export function useCopied() {
  const toast = useToast()
  const [copied, setCopied] = useState(false)
  useEffect(() => {
    if (!copied) return
    const timer = window.setTimeout(() => setCopied(false), COPY_FEEDBACK_MS)
    return () => window.clearTimeout(timer)
  }, [copied])
  const copy = async (text: string) => {
    try {
      await copyText(text)
      setCopied(true)
    } catch (error) {
      toast.error('Could not copy to the clipboard', errorMessage(error))
    }
  }
  return { copied, copy }
}
