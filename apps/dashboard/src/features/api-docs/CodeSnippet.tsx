import { Check, Copy } from 'lucide-react'
import { Button } from '../../components/ui/Button'
import { useCopied } from './useCopied'

interface CodeSnippetProps {
  title?: string
  description?: string
  code: string
  /** Names the snippet for assistive technology and tests. */
  label: string
}

/** A snippet with its Copy button ('Copied' for 2 s). */
export function CodeSnippet({ title, description, code, label }: CodeSnippetProps) {
  const { copied, copy } = useCopied()
  return (
    <section className="docs-snippet" aria-label={label}>
      <div className="docs-snippet-head">
        <div className="docs-snippet-text">
          {title ? <h4 className="docs-snippet-title">{title}</h4> : null}
          {description ? <p className="docs-snippet-description muted">{description}</p> : null}
        </div>
        <Button
          size="sm"
          variant="ghost"
          icon={copied ? <Check size={14} aria-hidden="true" /> : <Copy size={14} aria-hidden="true" />}
          onClick={() => void copy(code)}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <pre className="docs-code">
        <code>{code}</code>
      </pre>
    </section>
  )
}
