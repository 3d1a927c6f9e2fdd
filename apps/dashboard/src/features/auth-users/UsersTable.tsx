import type { AuthUser } from '@stratum/contracts'
import { KeyRound, Trash2 } from 'lucide-react'
import { Badge } from '../../components/ui/Badge'
import { IconButton } from '../../components/ui/Button'
import { Card } from '../../components/ui/Card'
import { TableHead } from '../../components/ui/TableHead'
import { formatDateTime } from '../../lib/format'
import { AUTH_TEXTS } from './texts'

function Status({ user }: { user: AuthUser }) {
  if (user.banned_until && new Date(user.banned_until) > new Date()) return <Badge tone="danger">Banned</Badge>
  if (user.is_anonymous) return <Badge tone="neutral">Anonymous</Badge>
  if (user.email_confirmed_at || user.phone_confirmed_at) return <Badge tone="success">Confirmed</Badge>
  if (user.invited_at) return <Badge tone="warning">Invited</Badge>
  return <Badge tone="neutral">Waiting for verification</Badge>
}

interface UsersTableProps {
  users: AuthUser[]
  canWrite: boolean
  onRecover: (user: AuthUser) => void
  onDelete: (user: AuthUser) => void
}

/** The project's end users: who, how they sign in, when they last did. */
export function UsersTable({ users, canWrite, onRecover, onDelete }: UsersTableProps) {
  return (
    <Card flush>
      <table className="table" aria-label="Users">
        <TableHead columns={['Email or phone', 'Provider', 'Status', 'Created', 'Last sign in', 'User ID', { hidden: 'Actions' }]} />
        <tbody>
          {users.map((user) => {
            const who = user.email || (user.phone ? `+${user.phone}` : user.is_anonymous ? 'Anonymous user' : '')
            return (
              <tr key={user.id}>
                <td>{who}</td>
                <td>{user.is_anonymous ? 'anonymous' : String(user.app_metadata.provider ?? 'email')}</td>
                <td>
                  <Status user={user} />
                </td>
                <td className="nowrap">
                  <time dateTime={user.created_at}>{formatDateTime(user.created_at)}</time>
                </td>
                <td className="nowrap">
                  {user.last_sign_in_at ? <time dateTime={user.last_sign_in_at}>{formatDateTime(user.last_sign_in_at)}</time> : <span className="muted">Never</span>}
                </td>
                <td className="mono auth-user-id">{user.id}</td>
                <td className="table-actions">
                  <IconButton
                    size="sm"
                    label={`Send password recovery to ${who}`}
                    icon={<KeyRound size={14} aria-hidden="true" />}
                    onClick={() => onRecover(user)}
                    disabled={!canWrite || !user.email}
                    disabledReason={!canWrite ? AUTH_TEXTS.writePermission : 'Only users with an email get a recovery link'}
                  />
                  <IconButton
                    size="sm"
                    label={`Delete user ${who}`}
                    icon={<Trash2 size={14} aria-hidden="true" />}
                    onClick={() => onDelete(user)}
                    disabled={!canWrite}
                    disabledReason={AUTH_TEXTS.writePermission}
                  />
                </td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </Card>
  )
}
