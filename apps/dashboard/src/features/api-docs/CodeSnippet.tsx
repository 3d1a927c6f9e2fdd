import { CopyButton } from '../../components/ui/CopyButton'

interface CodeSnippetProps {
  title?: string
  description?: string
  code: string
  /** Names the snippet for assistive technology and tests. */
  label: string
}

/** A snippet with its Copy button ('Copied' for 2 s). */
export function CodeSnippet({ title, description, code, label }: CodeSnippetProps) {
  return (
    <section className="docs-snippet" aria-label={label}>
      <div className="docs-snippet-head">
        <div className="docs-snippet-text">
          {title ? <h4 className="docs-snippet-title">{title}</h4> : null}
          {description ? <p className="docs-snippet-description muted">{description}</p> : null}
        </div>
        <CopyButton appearance="text" variant="ghost" value={code} />
      </div>
      <pre className="docs-code">
        <code>{code}</code>
      </pre>
    </section>
  )
}
