import { Check, Copy } from 'lucide-react'
import { useEffect, useState } from 'react'
import { copyText } from '../../lib/clipboard'
import { errorMessage } from '../../data/api'
import { IconButton } from './Button'
import { useToast } from './Toast'

interface CopyButtonProps {
  value: string
  /** What is copied, for the accessible name: 'Copy {what}'. */
  what: string
  size?: 'sm' | 'md'
}

export function CopyButton({ value, what, size = 'sm' }: CopyButtonProps) {
  const toast = useToast()
  const [copied, setCopied] = useState(false)

  useEffect(() => {
    if (!copied) return
    const timer = window.setTimeout(() => setCopied(false), 1500)
    return () => window.clearTimeout(timer)
  }, [copied])

  const copy = async () => {
    try {
      await copyText(value)
      setCopied(true)
    } catch (error) {
      toast.error('Could not copy to the clipboard', errorMessage(error))
    }
  }

  return (
    <IconButton
      size={size}
      label={copied ? 'Copied' : `Copy ${what}`}
      icon={copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
      onClick={copy}
    />
  )
}
