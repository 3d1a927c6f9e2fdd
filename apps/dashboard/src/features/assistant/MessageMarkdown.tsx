import { VERIFY_LINK_TITLE } from '@stratum/contracts'
import { useState, type ReactNode } from 'react'
import Markdown, { type Components } from 'react-markdown'
import { Link } from 'react-router'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { classifyLink } from './link-policy'

function VerifiedLink({ href, children }: { href: string; children: ReactNode }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <a
        href={href}
        onClick={(event) => {
          event.preventDefault()
          setOpen(true)
        }}
      >
        {children}
      </a>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        size="sm"
        title={VERIFY_LINK_TITLE}
        description="This link was written by the AI assistant. Check where it leads before you open it."
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button
              variant="primary"
              onClick={() => {
                setOpen(false)
                window.open(href, '_blank', 'noopener,noreferrer')
              }}
            >
              Open link
            </Button>
          </>
        }
      >
        <p className="assistant-verify-url mono">{href}</p>
      </Dialog>
    </>
  )
}

const components: Components = {
  a: ({ href, children }) => {
    const kind = classifyLink(href)
    if (kind === 'relative') return <Link to={href!}>{children}</Link>
    if (kind === 'external') return <VerifiedLink href={href!}>{children}</VerifiedLink>
    return <span className="assistant-refused-link">{children}</span>
  },
  // An image would be fetched as soon as it is shown: a way to send data out through its URL. Its text only.
  img: ({ alt }) => <span>{alt}</span>,
}

/** Keeps every URL as written: the components above decide, so nothing is rewritten behind them. */
const keepUrl = (url: string) => url

/** An assistant or user message as markdown: no raw HTML (skipped), links by the spec's rule. */
export function MessageMarkdown({ text }: { text: string }) {
  return (
    <div className="assistant-markdown">
      <Markdown skipHtml components={components} urlTransform={keepUrl}>
        {text}
      </Markdown>
    </div>
  )
}
