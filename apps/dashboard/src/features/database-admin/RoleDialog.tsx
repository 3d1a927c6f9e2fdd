import type { PgMetaRole } from '@stratum/contracts'
import { useId, useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Checkbox } from '../../components/ui/Checkbox'
import { Dialog } from '../../components/ui/Dialog'
import { TextField } from '../../components/ui/Field'
import type { PendingSql } from '../table-editor'
import { ReviewFooter } from './ReviewFooter'
import { AdminInputError } from './sql/names'
import { passwordForSql } from './sql/scram'
import { buildAlterRole, buildCreateRole, ROLE_ATTRIBUTE_DEFAULTS, type RoleAttributes } from './sql/roles'

interface RoleDialogProps {
  /** The role to change; a new one when absent. */
  role?: PgMetaRole
  /** The role's own connection limit, -1 for none (postgres-meta answers max_connections for that). */
  storedLimit: number | undefined
  onClose: () => void
  onPreview: (pending: PendingSql) => void
}

/** Why the form never offers these: `postgres` lacks them, so Postgres would refuse them anyway. */
const FORBIDDEN_ATTRIBUTE_REASON = 'Only the platform’s own roles hold this: a project’s roles never do (it would reach the whole server).'

function attributesOf(role: PgMetaRole | undefined, storedLimit: number | undefined): RoleAttributes {
  if (!role) return ROLE_ATTRIBUTE_DEFAULTS
  return {
    canLogin: role.can_login,
    canCreateRole: role.can_create_role,
    canCreateDb: role.can_create_db,
    canBypassRls: role.can_bypass_rls,
    inherit: role.inherit_role,
    // postgres-meta shows max_connections for "no limit"; keeping it would write that number as a real limit.
    connectionLimit: storedLimit ?? role.connection_limit,
    validUntil: role.valid_until && role.valid_until !== 'infinity' ? role.valid_until : '',
  }
}

/** Create a role or change one the project made: the attributes a tenant may hold, a password, an expiry. */
export function RoleDialog({ role, storedLimit, onClose, onPreview }: RoleDialogProps) {
  const formId = useId()
  const [name, setName] = useState(role?.name ?? '')
  const [password, setPassword] = useState('')
  const [attributes, setAttributes] = useState<RoleAttributes>(() => attributesOf(role, storedLimit))
  const [limit, setLimit] = useState(String(attributes.connectionLimit))
  const [problem, setProblem] = useState<string | undefined>()
  const set = (change: Partial<RoleAttributes>) => setAttributes((current) => ({ ...current, ...change }))

  const review = async (event: FormEvent) => {
    event.preventDefault()
    try {
      if (!/^-?\d+$/.test(limit.trim())) throw new AdminInputError('The connection limit is a whole number, -1 for none')
      const spec = { ...attributes, connectionLimit: Number(limit.trim()), name: name.trim(), password: await passwordForSql(password) }
      const sql = role ? buildAlterRole(role.name, spec) : buildCreateRole(spec)
      onPreview(
        role
          ? { title: `Change role ${role.name}`, sql, done: `Role ${spec.name} updated` }
          : { title: `Create role ${spec.name}`, sql, done: `Role ${spec.name} created` },
      )
      onClose()
    } catch (error) {
      if (error instanceof AdminInputError) return setProblem(error.message)
      throw error
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={role ? `Edit role ${role.name}` : 'New role'}
      footer={<ReviewFooter formId={formId} onCancel={onClose} />}
    >
      <form id={formId} className="stack" onSubmit={(event) => void review(event)} noValidate>
        <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} autoComplete="off" spellCheck={false} autoFocus />
        <TextField
          label={role ? 'New password (optional)' : 'Password (optional)'}
          hint={`${role ? 'Left blank, the password stays as it is. ' : ''}Hashed in your browser (a SCRAM-SHA-256 verifier) where it can be, so the SQL never holds it.`}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <fieldset className="dba-fieldset stack-sm">
          <legend className="field-label">Attributes</legend>
          <Checkbox label="Can log in" checked={attributes.canLogin} onCheckedChange={(on) => set({ canLogin: on })} />
          <Checkbox
            label="Inherit privileges"
            hint="Uses the privileges of the roles it belongs to without SET ROLE."
            checked={attributes.inherit}
            onCheckedChange={(on) => set({ inherit: on })}
          />
          <Checkbox
            label="Create roles"
            hint="May create roles, and change and drop those it creates."
            checked={attributes.canCreateRole}
            onCheckedChange={(on) => set({ canCreateRole: on })}
          />
          <Checkbox label="Create databases" checked={attributes.canCreateDb} onCheckedChange={(on) => set({ canCreateDb: on })} />
          <Checkbox
            label="Bypass Row Level Security"
            hint="Reads and writes every row, whatever the policies say."
            checked={attributes.canBypassRls}
            onCheckedChange={(on) => set({ canBypassRls: on })}
          />
          <Checkbox label="Superuser" hint={FORBIDDEN_ATTRIBUTE_REASON} checked={false} disabled onCheckedChange={() => undefined} />
          <Checkbox label="Replication" hint={FORBIDDEN_ATTRIBUTE_REASON} checked={false} disabled onCheckedChange={() => undefined} />
        </fieldset>
        <div className="dba-form-row">
          <TextField
            label="Connection limit"
            hint="-1: no limit of its own."
            inputMode="numeric"
            value={limit}
            onChange={(event) => setLimit(event.target.value)}
          />
          <TextField
            label="Password valid until (optional)"
            hint="A date or timestamp, e.g. 2030-01-01."
            value={attributes.validUntil}
            onChange={(event) => set({ validUntil: event.target.value })}
            autoComplete="off"
          />
        </div>
        {problem ? <Alert tone="danger" title={problem} /> : null}
      </form>
    </Dialog>
  )
}
