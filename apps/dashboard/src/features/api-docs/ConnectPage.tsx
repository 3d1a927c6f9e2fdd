import { API_KEY_TEXTS } from '@stratum/contracts'
import { Eye, EyeOff } from 'lucide-react'
import { Button } from '../../components/ui/Button'
import { CodeSnippet } from './CodeSnippet'
import { CopyRow } from './CopyRow'
import { initSnippet, serviceKeySnippet, type Language, type SnippetContext } from './snippets'

interface ConnectPageProps {
  lang: Language
  ctx: SnippetContext
  url: string
  anonKey: string | undefined
  serviceKey: string | undefined
  showKeys: boolean
  onToggleKeys: () => void
}

/** The Connect (introduction) page: URL and keys, and how a client is set up with them. */
export function ConnectPage({ lang, ctx, url, anonKey, serviceKey, showKeys, onToggleKeys }: ConnectPageProps) {
  return (
    <article className="docs-page">
      <header className="docs-page-header">
        <h3>Connect to your project</h3>
        <p className="muted">
          Every project has a RESTful endpoint generated from its database. Call it with the project URL and one of its API keys.
        </p>
      </header>
      <div className="docs-keys">
        <div className="row">
          <Button
            size="sm"
            icon={showKeys ? <EyeOff size={14} aria-hidden="true" /> : <Eye size={14} aria-hidden="true" />}
            onClick={onToggleKeys}
            aria-pressed={showKeys}
          >
            {showKeys ? 'Hide keys' : 'Show keys'}
          </Button>
          <span className="muted docs-keys-note">Shown keys are also filled into every snippet.</span>
        </div>
        <CopyRow label="Project URL" value={url} />
        <CopyRow
          label="Client API key"
          value={anonKey}
          masked={!showKeys}
          hint="The anon key is safe to use in a browser when Row Level Security is enabled on your tables and policies are set up."
        />
        <CopyRow
          label="Service key"
          value={serviceKey}
          masked={!showKeys}
          deniedText={API_KEY_TEXTS.noPermissionKey}
          hint={
            serviceKey === undefined
              ? undefined
              : 'The service_role key bypasses Row Level Security. Never share it publicly or use it in a browser.'
          }
        />
      </div>
      <CodeSnippet label="Initializing the client" title="Initializing the client" code={initSnippet(lang, ctx)} />
      {serviceKey !== undefined ? (
        <CodeSnippet
          label="Using the service key"
          title="Using the service key"
          description="On a server only: requests made with it bypass Row Level Security."
          code={serviceKeySnippet(lang, ctx, showKeys ? serviceKey : undefined)}
        />
      ) : null}
    </article>
  )
}
