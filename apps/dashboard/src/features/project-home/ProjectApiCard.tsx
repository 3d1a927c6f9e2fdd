import type { Project } from '@stratum/contracts'
import { Plug } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { CopyButton } from '../../components/ui/CopyButton'
import { CopyField } from '../../components/ui/CopyField'
import { Dialog } from '../../components/ui/Dialog'
import { apiKeyOf, projectApiUrl, useProjectSettings } from '../../data/api-keys/useProjectSettings'
import { connectionUri, psqlCommand } from './connection-strings'

/** What an app needs first: the project URL and the anon key, and how to connect (supabase-js or Postgres). */
export function ProjectApiCard({ project }: { project: Project }) {
  const settings = useProjectSettings(project.ref)
  const [connecting, setConnecting] = useState(false)
  const url = settings.data ? projectApiUrl(settings.data) : ''
  const anonKey = apiKeyOf(settings.data, 'anon') ?? ''

  return (
    <Card
      title="Project API"
      description="Your app reaches the project's REST, auth, storage, realtime and functions APIs at this URL, with this key."
      footer={
        <Button icon={<Plug size={14} aria-hidden="true" />} onClick={() => setConnecting(true)} disabled={!url}>
          Connect
        </Button>
      }
    >
      <CopyField label="Project URL" value={url} />
      <CopyField
        label="API key (anon, public)"
        value={anonKey}
        hint="Safe in a browser when Row Level Security is enabled on your tables. Other keys are under Project Settings > API Keys."
      />
      <ConnectDialog open={connecting} onOpenChange={setConnecting} project={project} url={url} anonKey={anonKey} />
    </Card>
  )
}

function ConnectDialog({ open, onOpenChange, project, url, anonKey }: { open: boolean; onOpenChange: (open: boolean) => void; project: Project; url: string; anonKey: string }) {
  const clientCode = [
    `import { createClient } from '@supabase/supabase-js'`,
    ``,
    `const supabase = createClient('${url}', '${anonKey}')`,
  ].join('\n')
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Connect to your project" description="From an app through the project's APIs, or straight to its Postgres database.">
      <section className="connect-section" aria-label="App with supabase-js">
        <h3 className="connect-heading">App (supabase-js)</h3>
        <Snippet label="Install" code="npm install @supabase/supabase-js" />
        <Snippet label="Create the client" code={clientCode} />
      </section>
      <section className="connect-section" aria-label="Direct Postgres connection">
        <h3 className="connect-heading">Postgres</h3>
        <Snippet label="Connection URI" code={connectionUri(project)} />
        <Snippet label="psql" code={psqlCommand(project)} />
        <p className="muted connect-note">Replace [YOUR-PASSWORD] with the database password (Home, Reset database password, if it is lost).</p>
      </section>
    </Dialog>
  )
}

function Snippet({ label, code }: { label: string; code: string }) {
  return (
    <div className="connect-snippet">
      <div className="connect-snippet-head">
        <span className="connect-snippet-label">{label}</span>
        <CopyButton what={label} value={code} />
      </div>
      <pre className="connect-code">
        <code>{code}</code>
      </pre>
    </div>
  )
}
