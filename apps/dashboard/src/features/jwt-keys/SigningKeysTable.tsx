import { FileKey } from 'lucide-react'
import { Link } from 'react-router'
import { Badge, type BadgeTone } from '../../components/ui/Badge'
import { Button, IconButton } from '../../components/ui/Button'
import { CopyButton } from '../../components/ui/CopyButton'
import { TableHead } from '../../components/ui/TableHead'
import { formatDateTime } from '../../lib/format'
import { ALGORITHM_LABELS, isLegacy, shortId, STATUS_LABELS, type SigningKey, type SigningKeyStatus } from './texts'

const STATUS_TONES: Record<SigningKeyStatus, BadgeTone> = { in_use: 'success', standby: 'info', previously_used: 'neutral', revoked: 'danger' }

/** What a row can ask for; the page confirms the destructive ones. */
export interface KeyActions {
  onViewJwk: (key: SigningKey) => void
  onUse: (key: SigningKey) => void
  onStandby: (key: SigningKey) => void
  onRevoke: (key: SigningKey) => void
  onDelete: (key: SigningKey) => void
}

interface SigningKeysTableProps extends KeyActions {
  projectRef: string
  keys: SigningKey[]
  label: string
  /** Why keys cannot be changed (a missing permission); absent: they can. */
  changeReason: string | undefined
  /** The key whose change is under way (its buttons spin). */
  busyId: string | null
}

export function StatusBadge({ status }: { status: SigningKeyStatus }) {
  return (
    <Badge tone={STATUS_TONES[status]} dot={status === 'in_use'}>
      {STATUS_LABELS[status]}
    </Badge>
  )
}

/** A row's name for assistive technology: the buttons read 'Revoke', and 'Revoke key 3f2a…' to a screen reader. */
const named = (text: string, key: SigningKey) => (
  <>
    {text}
    <span className="visually-hidden"> key {shortId(key)}</span>
  </>
)

interface RowActionsProps extends KeyActions {
  projectRef: string
  signingKey: SigningKey
  changeReason: string | undefined
  busy: boolean
}

function RowActions({ projectRef, signingKey: key, changeReason, busy, ...actions }: RowActionsProps) {
  const locked = Boolean(changeReason)
  const legacy = isLegacy(key)
  return (
    <div className="jwt-key-actions">
      {key.public_jwk ? (
        <IconButton
          size="sm"
          label={`View public key ${shortId(key)}`}
          icon={<FileKey size={14} aria-hidden="true" />}
          onClick={() => actions.onViewJwk(key)}
        />
      ) : null}
      {legacy ? (
        <Link className="btn btn-ghost btn-sm" to={`/project/${projectRef}/settings/api`}>
          View secret
        </Link>
      ) : null}
      {key.status === 'previously_used' && legacy ? (
        <Button size="sm" disabled={locked} disabledReason={changeReason} loading={busy} onClick={() => actions.onUse(key)}>
          {named('Use again', key)}
        </Button>
      ) : null}
      {key.status === 'previously_used' && !legacy ? (
        <Button size="sm" disabled={locked} disabledReason={changeReason} loading={busy} onClick={() => actions.onStandby(key)}>
          {named('Move to standby', key)}
        </Button>
      ) : null}
      {(key.status === 'previously_used' || key.status === 'standby') && !legacy ? (
        <Button size="sm" variant="danger" disabled={locked} disabledReason={changeReason} onClick={() => actions.onRevoke(key)}>
          {named('Revoke', key)}
        </Button>
      ) : null}
      {key.status === 'revoked' ? (
        <Button size="sm" variant="danger" disabled={locked} disabledReason={changeReason} onClick={() => actions.onDelete(key)}>
          {named('Delete', key)}
        </Button>
      ) : null}
    </div>
  )
}

/**
 * The keys of one status: since when, id (copyable), algorithm, creation, and what may be done with each. The legacy secret is a row
 * like the others, without a public key to show (it is a shared secret, never published).
 */
export function SigningKeysTable({ projectRef, keys, label, changeReason, busyId, ...actions }: SigningKeysTableProps) {
  return (
    <div className="jwt-table-scroll">
      <table className="table jwt-table" aria-label={label}>
        <TableHead columns={['Status', 'Key ID', 'Type', 'Created', { hidden: 'Actions' }]} />
        <tbody>
          {keys.map((key) => (
            <tr key={key.id} data-testid="signing-key-row" data-key-id={key.id} data-status={key.status} data-algorithm={key.algorithm}>
              <td className="nowrap">
                <StatusBadge status={key.status} />
                <div className="muted jwt-key-sub">
                  since <time dateTime={key.updated_at}>{formatDateTime(key.updated_at)}</time>
                </div>
              </td>
              <td className="mono jwt-key-id">
                <span title={key.id}>{key.id}</span>
                <CopyButton value={key.id} what={`key id ${shortId(key)}`} />
              </td>
              <td className="jwt-key-type">
                {isLegacy(key) ? (
                  <>
                    <div>Legacy JWT secret</div>
                    <div className="muted jwt-key-sub">
                      <span className="mono">HS256</span> · {ALGORITHM_LABELS.HS256}
                    </div>
                  </>
                ) : (
                  <>
                    <div className="mono">{key.algorithm}</div>
                    <div className="muted jwt-key-sub">{ALGORITHM_LABELS[key.algorithm]}</div>
                  </>
                )}
              </td>
              <td className="nowrap">
                <time dateTime={key.created_at}>{formatDateTime(key.created_at)}</time>
              </td>
              <td className="table-actions">
                <RowActions projectRef={projectRef} signingKey={key} changeReason={changeReason} busy={busyId === key.id} {...actions} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
