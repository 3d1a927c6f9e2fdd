import type { PgMetaRole } from '@stratum/contracts'
import type { ReactNode } from 'react'
import { Badge } from '../../components/ui/Badge'
import { Card } from '../../components/ui/Card'
import { TableHead } from '../../components/ui/TableHead'
import type { RoleCatalogEntry } from '../../data/database-admin/types'

interface RolesTableProps {
  title: string
  emptyText?: string
  roles: PgMetaRole[]
  entry: (name: string) => RoleCatalogEntry | undefined
  actions: (role: PgMetaRole) => ReactNode
}

/** The attributes shown as badges, in the order Postgres lists them. */
function attributeBadges(role: PgMetaRole): string[] {
  return [
    role.is_superuser && 'Superuser',
    role.can_login && 'Login',
    role.can_create_role && 'Create roles',
    role.can_create_db && 'Create databases',
    role.can_bypass_rls && 'Bypass RLS',
    role.is_replication_role && 'Replication',
    !role.inherit_role && 'No inherit',
  ].filter((badge): badge is string => Boolean(badge))
}

/** One group of roles: memberships under each name, attributes, connections against the limit, password expiry. */
export function RolesTable({ title, emptyText, roles, entry, actions }: RolesTableProps) {
  return (
    <Card title={title} flush>
      {roles.length === 0 ? (
        <p className="dba-muted dba-card-empty">{emptyText}</p>
      ) : (
        <table className="table dba-table" aria-label={title}>
          <TableHead columns={['Name', 'Attributes', 'Connections', 'Valid until', { hidden: 'Actions' }]} />
          <tbody>
            {roles.map((role) => {
              const stored = entry(role.name)?.connection_limit
              const memberOf = entry(role.name)?.member_of ?? []
              return (
                <tr key={role.id}>
                  <td>
                    <div className="mono nowrap">{role.name}</div>
                    {memberOf.length ? <div className="dba-members">Member of {memberOf.join(', ')}</div> : null}
                  </td>
                  <td>
                    <div className="dba-tags">
                      {attributeBadges(role).map((badge) => (
                        <Badge key={badge} tone={badge === 'Superuser' || badge === 'Replication' ? 'warning' : 'neutral'}>
                          {badge}
                        </Badge>
                      ))}
                    </div>
                  </td>
                  <td className="nowrap dba-number">
                    {role.active_connections} / {stored === -1 ? <span className="muted">no limit</span> : role.connection_limit}
                  </td>
                  <td className="nowrap">{role.valid_until && role.valid_until !== 'infinity' ? role.valid_until : <span className="muted">-</span>}</td>
                  <td className="dba-actions">{actions(role)}</td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
    </Card>
  )
}
