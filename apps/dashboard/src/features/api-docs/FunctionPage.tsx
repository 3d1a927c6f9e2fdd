import type { FunctionResponse } from '@stratum/contracts'
import { ArrowRight } from 'lucide-react'
import { Link } from 'react-router'
import { CodeSnippet } from './CodeSnippet'
import { ItemHeader } from './ItemHeader'
import { functionSnippet, type Language, type SnippetContext } from './snippets'

interface FunctionPageProps {
  projectRef: string
  fn: FunctionResponse
  slugs: string[]
  lang: Language
  ctx: SnippetContext
  onSelect: (slug: string) => void
  onBack: () => void
  onNavigate: () => void
}

/** One edge function: how to invoke it, and where its details live. */
export function FunctionPage({ projectRef, fn, slugs, lang, ctx, onSelect, onBack, onNavigate }: FunctionPageProps) {
  return (
    <article className="docs-page">
      <ItemHeader
        title={fn.slug}
        description={
          <>
            {fn.name !== fn.slug ? <>{fn.name}. </> : null}Version {fn.version}, JWT verification {fn.verify_jwt ? 'on' : 'off'}.{' '}
            <Link className="docs-inline-link" to={`/project/${projectRef}/functions/${encodeURIComponent(fn.slug)}/details`} onClick={onNavigate}>
              Function details
              <ArrowRight size={12} aria-hidden="true" />
            </Link>
          </>
        }
        items={slugs}
        itemLabel="Edge function"
        onSelect={onSelect}
        onBack={onBack}
      />
      <CodeSnippet
        label="Invoke function"
        title="Invoke function"
        description={
          fn.verify_jwt
            ? 'JWT verification is on: the call carries the anon key or a user’s access token as its bearer.'
            : 'JWT verification is off: the function answers calls without a token.'
        }
        code={functionSnippet(lang, ctx, fn.slug)}
      />
    </article>
  )
}
