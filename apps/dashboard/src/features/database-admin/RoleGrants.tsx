import { useState } from 'react'
import { Card } from '../../components/ui/Card'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { Switch } from '../../components/ui/Switch'
import { TableHead } from '../../components/ui/TableHead'
import { useRoleGrants } from '../../data/database-admin/useRoles'
import type { PendingSql } from '../table-editor'
import { SchemaSelect } from '../../components/project/SchemaSearchToolbar'
import { useRevealOnOpen } from './useRevealOnOpen'
import { buildSchemaUsage, buildTableGrant, TABLE_PRIVILEGES, type TablePrivilege } from './sql/grants'

interface RoleGrantsProps {
  projectRef: string
  role: string
  /** Why the switches are off, if they are. */
  lock: string | undefined
  onPreview: (pending: PendingSql) => void
}

/** What one role is granted in one schema: USAGE on it, and SELECT, INSERT, UPDATE, DELETE on each table. */
export function RoleGrants({ projectRef, role, lock, onPreview }: RoleGrantsProps) {
  const [schema, setSchema] = useState('public')
  const anchor = useRevealOnOpen<HTMLDivElement>(role)
  const grants = useRoleGrants(projectRef, role, schema)

  const toggleTable = (table: string, privilege: TablePrivilege, granted: boolean) =>
    onPreview({
      title: `${granted ? 'Grant' : 'Revoke'} ${privilege} on ${table} ${granted ? 'to' : 'from'} ${role}`,
      sql: buildTableGrant(role, { schema, name: table }, privilege, granted),
      done: granted ? `${privilege} on ${table} granted to ${role}` : `${privilege} on ${table} revoked from ${role}`,
      destructive: !granted,
    })

  return (
    <div ref={anchor}>
      <Card
        title={`Grants of ${role}`}
        description="Privileges granted to this role by name (those it has through PUBLIC or another role are not shown)."
        actions={<SchemaSelect projectRef={projectRef} value={schema} onChange={setSchema} />}
        flush
      >
        {grants.isPending ? (
          <LoadingState label="Loading grants…" />
        ) : grants.isError ? (
          <QueryError query={grants} title="Could not load the grants" />
        ) : (
          <>
            <div className="dba-usage">
              <Switch
                label={`Usage on schema ${schema}`}
                checked={grants.data.usage}
                disabled={Boolean(lock)}
                disabledReason={lock}
                onCheckedChange={(granted) =>
                  onPreview({
                    title: `${granted ? 'Grant' : 'Revoke'} usage on ${schema} ${granted ? 'to' : 'from'} ${role}`,
                    sql: buildSchemaUsage(role, schema, granted),
                    done: granted ? `Usage on ${schema} granted to ${role}` : `Usage on ${schema} revoked from ${role}`,
                    destructive: !granted,
                  })
                }
              />
              <span className="dba-muted">
              {grants.data.usage || !grants.data.usage_effective
                ? 'Without USAGE on the schema, the role reaches none of its tables, whatever their grants.'
                : `It already has USAGE on ${schema} through PUBLIC or a role it belongs to.`}
            </span>
            </div>
            {grants.data.tables.length === 0 ? (
              <p className="dba-muted dba-card-empty">No tables in {schema}.</p>
            ) : (
              <table className="table dba-table" aria-label={`Table grants of ${role}`}>
                <TableHead columns={['Table', ...TABLE_PRIVILEGES]} />
                <tbody>
                  {grants.data.tables.map((table) => (
                    <tr key={table.id}>
                      <td className="mono nowrap">{table.name}</td>
                      {TABLE_PRIVILEGES.map((privilege) => (
                        <td key={privilege}>
                          <Switch
                            label={`${privilege} on ${table.name}`}
                            checked={table.privileges.includes(privilege)}
                            disabled={Boolean(lock)}
                            disabledReason={lock}
                            onCheckedChange={(granted) => toggleTable(table.name, privilege, granted)}
                          />
                        </td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </>
        )}
      </Card>
    </div>
  )
}
