import { Plus } from 'lucide-react'
import { useState } from 'react'
import { Button } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { usePageTitle } from '../../lib/usePageTitle'
import { AccessTokensTable } from './AccessTokensTable'
import { CreateTokenDialog } from './CreateTokenDialog'
import './account.css'

export function AccessTokensPage() {
  usePageTitle(['Access tokens', 'Account'])
  const [creating, setCreating] = useState(false)
  const origin = window.location.origin

  return (
    <div className="stack">
      <Card
        title="Personal access tokens"
        description="Tokens let scripts and tools act as you, with your roles in each organization."
        actions={
          <Button variant="primary" icon={<Plus size={14} aria-hidden="true" />} onClick={() => setCreating(true)}>
            Generate new token
          </Button>
        }
      >
        <p className="muted">
          A token works as <code>Authorization: Bearer sbp_…</code> on every <code>/platform</code> and <code>/v1</code>{' '}
          route of this server, including the Management API. Tokens look like <code>sbp_</code> followed by 40
          hexadecimal characters. Revoke a token as soon as you no longer need it.
        </p>
        <pre className="code-block" aria-label="Example request">
          <code>{`curl -H "Authorization: Bearer sbp_…" ${origin}/v1/projects`}</code>
        </pre>
      </Card>
      <AccessTokensTable />
      <CreateTokenDialog open={creating} onOpenChange={setCreating} />
    </div>
  )
}
