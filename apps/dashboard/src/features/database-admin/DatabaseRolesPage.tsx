import type { PgMetaRole } from '@stratum/contracts'
import { Pencil, Trash2 } from 'lucide-react'
import { useState } from 'react'
import { Button, IconButton } from '../../components/ui/Button'
import { QueryError } from '../../components/ui/QueryState'
import { LoadingState } from '../../components/ui/Spinner'
import { databaseAdminKeys } from '../../data/database-admin/keys'
import { useRoleCatalog, useRoles } from '../../data/database-admin/useRoles'
import type { RoleCatalogEntry } from '../../data/database-admin/types'
import { useProjectPageTitle } from '../../lib/useProjectPageTitle'
import { RoleDialog } from './RoleDialog'
import { RoleGrants } from './RoleGrants'
import { RolesTable } from './RolesTable'
import { buildDropRole } from './sql/roles'
import { DatabasePage, READ_ONLY_REASON, useDatabasePage, useUrlParam } from '../database-pages'
import './database-admin.css'

/** The API roles: the platform made them, but deciding what they may reach is the project's (as on Supabase). */
const API_ROLES = ['anon', 'authenticated', 'service_role']
const PLATFORM_ROLE_REASON = 'A role of the platform or of Postgres: it cannot be changed or dropped here'
const NO_CREATEROLE_REASON = 'On this Postgres version the postgres role cannot create roles (it needs Postgres 16 or later on this platform)'

/** /project/{ref}/database/roles: roles with attributes and memberships; the project's own are created, changed and granted here. */
export function DatabaseRolesPage() {
  useProjectPageTitle('Roles')
  const page = useDatabasePage(databaseAdminKeys.all)
  const { ref, canWrite, preview } = page
  const roles = useRoles(ref)
  const catalog = useRoleCatalog(ref)
  const [editing, setEditing] = useState<PgMetaRole | 'new' | undefined>()
  const [grantsOf, showGrantsOf] = useUrlParam('role')
  const entries = new Map((catalog.data?.roles ?? []).map((entry) => [entry.name, entry]))
  const entry = (name: string): RoleCatalogEntry | undefined => entries.get(name)
  const createReason = !canWrite ? READ_ONLY_REASON : catalog.data && !catalog.data.can_create_roles ? NO_CREATEROLE_REASON : undefined

  const ownRoles = (roles.data ?? []).filter((role) => entry(role.name)?.manageable)
  const otherRoles = (roles.data ?? []).filter((role) => !entry(role.name)?.manageable)
  const changeLock = (role: PgMetaRole) => (!canWrite ? READ_ONLY_REASON : entry(role.name)?.manageable ? undefined : PLATFORM_ROLE_REASON)
  const grantLock = (name: string) =>
    !canWrite ? READ_ONLY_REASON : entry(name)?.manageable || API_ROLES.includes(name) ? undefined : 'The platform manages this role’s grants'

  const actions = (role: PgMetaRole) => {
    const lock = changeLock(role)
    return (
      <>
        <Button size="sm" onClick={() => showGrantsOf(role.name)} aria-label={`Grants of ${role.name}`}>
          Grants
        </Button>
        <IconButton
          label={`Edit role ${role.name}`}
          icon={<Pencil size={14} aria-hidden="true" />}
          disabled={Boolean(lock)}
          disabledReason={lock}
          onClick={() => setEditing(role)}
        />
        <IconButton
          label={`Drop role ${role.name}`}
          icon={<Trash2 size={14} aria-hidden="true" />}
          disabled={Boolean(lock)}
          disabledReason={lock}
          onClick={() => preview({ title: `Drop role ${role.name}`, sql: buildDropRole(role.name), done: `Role ${role.name} dropped`, destructive: true })}
        />
      </>
    )
  }

  return (
    <DatabasePage
      title="Roles"
      description="Database roles log in or hold privileges for others. Your project’s own roles can be created and changed here; the platform’s roles keep what it gave them."
      page={page}
      create={{ label: 'Create role', onClick: () => setEditing('new'), lock: createReason }}
      dialogs={
        editing ? (
          <RoleDialog
            role={editing === 'new' ? undefined : editing}
            storedLimit={editing === 'new' ? undefined : entry(editing.name)?.connection_limit}
            onClose={() => setEditing(undefined)}
            onPreview={preview}
          />
        ) : null
      }
    >
      {roles.isPending || catalog.isPending ? (
        <LoadingState label="Loading roles…" />
      ) : roles.isError ? (
        <QueryError query={roles} title="Could not load the roles" />
      ) : catalog.isError ? (
        <QueryError query={catalog} title="Could not load the roles’ memberships" />
      ) : (
        <>
          <RolesTable
            title="Your roles"
            emptyText={
              createReason === NO_CREATEROLE_REASON
                ? NO_CREATEROLE_REASON
                : 'No roles of your own yet: create one to give an application or a person its own login and grants.'
            }
            roles={ownRoles}
            entry={entry}
            actions={actions}
          />
          <RolesTable title="Platform and API roles" roles={otherRoles} entry={entry} actions={actions} />
        </>
      )}
      {grantsOf && roles.data?.some((role) => role.name === grantsOf) ? (
        <RoleGrants key={grantsOf} projectRef={ref} role={grantsOf} lock={grantLock(grantsOf)} onPreview={preview} />
      ) : null}
    </DatabasePage>
  )
}
