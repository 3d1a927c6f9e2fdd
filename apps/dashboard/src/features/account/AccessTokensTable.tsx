import type { AccessToken } from '@stratum/contracts'
import { KeyRound } from 'lucide-react'
import { useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { EmptyState } from '../../components/ui/EmptyState'
import { LoadingState } from '../../components/ui/Spinner'
import { errorMessage } from '../../data/api'
import { useAccessTokens } from '../../data/access-tokens/useAccessTokens'
import { formatDateTime } from '../../lib/format'
import { RevokeTokenDialog } from './RevokeTokenDialog'
import { TableHead } from '../../components/ui/TableHead'

export function AccessTokensTable() {
  const tokens = useAccessTokens()
  const [revoking, setRevoking] = useState<AccessToken | null>(null)

  if (tokens.isPending) return <LoadingState label="Loading tokens…" />
  if (tokens.isError) {
    return (
      <Alert tone="danger" title="Could not load access tokens">
        {errorMessage(tokens.error)}
      </Alert>
    )
  }
  if (tokens.data.length === 0) {
    return <EmptyState icon={<KeyRound size={22} />} title="No access tokens" description="Generate one to use the API from scripts or the command line." />
  }

  return (
    <section aria-labelledby="tokens-heading" className="stack-sm">
      <h2 id="tokens-heading">Your tokens</h2>
      <div className="card card-body-flush">
        <table className="table">
          <TableHead columns={['Name', 'Token', 'Created', 'Last used', { hidden: 'Actions' }]} />
          <tbody>
            {tokens.data.map((token) => (
              <tr key={token.id}>
                <td>{token.name}</td>
                <td className="mono muted nowrap">{token.token_alias}</td>
                <td className="muted nowrap">{formatDateTime(token.created_at)}</td>
                <td className="muted">{token.last_used_at ? formatDateTime(token.last_used_at) : 'Never'}</td>
                <td className="table-actions">
                  <Button size="sm" variant="secondary" onClick={() => setRevoking(token)}>
                    Revoke<span className="visually-hidden"> {token.name}</span>
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <RevokeTokenDialog token={revoking} onClose={() => setRevoking(null)} />
    </section>
  )
}
