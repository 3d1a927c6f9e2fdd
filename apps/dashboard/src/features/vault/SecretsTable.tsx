import { Eye, EyeOff, Pencil, Trash2 } from 'lucide-react'
import { Card } from '../../components/ui/Card'
import { IconButton } from '../../components/ui/Button'
import { CopyButton } from '../../components/ui/CopyButton'
import { TableHead } from '../../components/ui/TableHead'
import type { VaultSecret } from '../../data/vault/vaultSql'
import { formatDateTime } from '../../lib/format'

interface SecretsTableProps {
  secrets: VaultSecret[]
  /** Why secrets cannot be changed or revealed (no full connection for this member, a stopped project); absent: they can. */
  changeReason: string | undefined
  revealReason: string | undefined
  /** Values revealed so far, by secret id. */
  revealed: ReadonlyMap<string, string>
  revealing: string | null
  onReveal: (secret: VaultSecret) => void
  onHide: (secret: VaultSecret) => void
  onEdit: (secret: VaultSecret) => void
  onDelete: (secret: VaultSecret) => void
}

/** One row per secret: its name and description, its id for SQL, its value once revealed, when it changed. */
export function SecretsTable({ secrets, changeReason, revealReason, revealed, revealing, onReveal, onHide, onEdit, onDelete }: SecretsTableProps) {
  return (
    <Card flush>
      <div className="vault-table-scroll">
        <table className="table vault-table" aria-label="Secrets">
          <TableHead columns={['Name', 'ID', 'Value', 'Created', 'Updated', { hidden: 'Actions' }]} />
          <tbody>
            {secrets.map((secret) => {
              const value = revealed.get(secret.id)
              const label = secret.name ?? secret.id
              return (
                <tr key={secret.id}>
                  <td className="vault-name">
                    <div className="mono">{secret.name ?? <span className="muted">No name</span>}</div>
                    {secret.description ? <div className="muted vault-description">{secret.description}</div> : null}
                  </td>
                  <td className="mono vault-id">
                    <span title={secret.id}>{secret.id}</span>
                    <CopyButton value={secret.id} what={`the id of ${label}`} />
                  </td>
                  <td className="vault-value">
                    {value === undefined ? (
                      <span className="muted vault-masked" aria-label="Hidden value">
                        ••••••••
                      </span>
                    ) : (
                      <code className="vault-revealed" data-testid="vault-revealed-value" title={value}>
                        {value}
                      </code>
                    )}
                    <IconButton
                      size="sm"
                      label={value === undefined ? `Reveal ${label}` : `Hide ${label}`}
                      icon={value === undefined ? <Eye size={14} /> : <EyeOff size={14} />}
                      loading={revealing === secret.id}
                      disabled={value === undefined && Boolean(revealReason)}
                      disabledReason={revealReason}
                      onClick={() => (value === undefined ? onReveal(secret) : onHide(secret))}
                    />
                  </td>
                  <td className="nowrap">
                    <time dateTime={secret.created_at}>{formatDateTime(secret.created_at)}</time>
                  </td>
                  <td className="nowrap">
                    <time dateTime={secret.updated_at}>{formatDateTime(secret.updated_at)}</time>
                  </td>
                  <td className="table-actions">
                    <IconButton size="sm" label={`Edit ${label}`} icon={<Pencil size={14} />} disabled={Boolean(changeReason)} disabledReason={changeReason} onClick={() => onEdit(secret)} />
                    <IconButton size="sm" label={`Delete ${label}`} icon={<Trash2 size={14} />} disabled={Boolean(changeReason)} disabledReason={changeReason} onClick={() => onDelete(secret)} />
                  </td>
                </tr>
              )
            })}
          </tbody>
        </table>
      </div>
    </Card>
  )
}
