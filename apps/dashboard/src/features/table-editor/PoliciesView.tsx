import { buildCreatePolicy, buildDropPolicy, buildSetRowLevelSecurity, POLICY_COMMANDS, TableEditorInputError, type PolicyCommand } from '@stratum/sql'
import { Plus, Trash2 } from 'lucide-react'
import { useState, type FormEvent } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button, IconButton } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { SelectField, TextAreaField, TextField } from '../../components/ui/Field'
import { Switch } from '../../components/ui/Switch'
import { useEditorChoices } from '../../data/table-editor/useCatalog'
import type { EditorRelation } from '../../data/table-editor/types'
import type { PendingSql } from './SqlPreviewDialog'
import { ReviewSqlFooter } from './ReviewSqlFooter'

interface PoliciesViewProps {
  projectRef: string
  relation: EditorRelation
  canWrite: boolean
  onPreview: (pending: PendingSql) => void
}

const API_ROLES = ['anon', 'authenticated', 'service_role']

function PolicyDialog({ projectRef, relation, onClose, onPreview }: Omit<PoliciesViewProps, 'canWrite'> & { onClose: () => void }) {
  const choices = useEditorChoices(projectRef)
  const [name, setName] = useState('')
  const [command, setCommand] = useState<PolicyCommand>('SELECT')
  const [permissive, setPermissive] = useState(true)
  const [roles, setRoles] = useState<string[]>([])
  const [using, setUsing] = useState('')
  const [withCheck, setWithCheck] = useState('')
  const [problem, setProblem] = useState<string | undefined>()
  const roleOptions = ['public', ...API_ROLES, ...(choices.data?.roles ?? []).filter((role) => !API_ROLES.includes(role) && role !== 'public')]
  const takesUsing = command !== 'INSERT'
  const takesCheck = command !== 'SELECT' && command !== 'DELETE'
  const review = (event: FormEvent) => {
    event.preventDefault()
    try {
      const sql = buildCreatePolicy(relation, {
        name: name.trim(),
        command,
        permissive,
        roles,
        ...(takesUsing ? { using } : {}),
        ...(takesCheck ? { withCheck } : {}),
      })
      onPreview({ title: `Create policy ${name.trim()}`, sql, done: `Policy ${name.trim()} created` })
      onClose()
    } catch (error) {
      if (error instanceof TableEditorInputError) return setProblem(error.message)
      throw error
    }
  }
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={`New policy on ${relation.name}`}
      footer={<ReviewSqlFooter formId="te-policy-form" onCancel={onClose} />}
    >
      <form id="te-policy-form" className="te-ddl-form" onSubmit={review}>
        <TextField label="Policy name" value={name} onChange={(event) => setName(event.target.value)} required autoFocus />
        <SelectField label="Command" value={command} onChange={(event) => setCommand(event.target.value as PolicyCommand)}>
          {POLICY_COMMANDS.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </SelectField>
        <SelectField label="Behaviour" value={permissive ? 'permissive' : 'restrictive'} onChange={(event) => setPermissive(event.target.value === 'permissive')}>
          <option value="permissive">permissive (any permissive policy lets a row through)</option>
          <option value="restrictive">restrictive (every restrictive policy must let it through)</option>
        </SelectField>
        <fieldset className="te-roles">
          <legend className="field-label">Target roles (none: public)</legend>
          {roleOptions.map((role) => (
            <label key={role} className="te-check">
              <input
                type="checkbox"
                checked={roles.includes(role)}
                onChange={(event) => setRoles((current) => (event.target.checked ? [...current, role] : current.filter((item) => item !== role)))}
              />
              {role}
            </label>
          ))}
        </fieldset>
        {takesUsing ? (
          <TextAreaField label="USING expression" hint="Rows it is true for are visible (e.g. auth.uid() = user_id)." className="te-mono" rows={2} value={using} onChange={(event) => setUsing(event.target.value)} />
        ) : null}
        {takesCheck ? (
          <TextAreaField label="WITH CHECK expression" hint="New and changed rows must make it true." className="te-mono" rows={2} value={withCheck} onChange={(event) => setWithCheck(event.target.value)} />
        ) : null}
        {problem ? <Alert tone="danger" title={problem} /> : null}
      </form>
    </Dialog>
  )
}

/** Row level security on or off, and the table's policies: create and drop, each showing its SQL first. */
export function PoliciesView({ projectRef, relation, canWrite, onPreview }: PoliciesViewProps) {
  const [creating, setCreating] = useState(false)
  return (
    <div className="te-policies">
      <div className="te-rls">
        <Switch
          label="Row Level Security"
          checked={relation.rls_enabled}
          disabled={!canWrite}
          disabledReason={canWrite ? undefined : 'Your role cannot change this table'}
          onCheckedChange={(enabled) =>
            onPreview({
              title: `${enabled ? 'Enable' : 'Disable'} Row Level Security on ${relation.name}`,
              sql: buildSetRowLevelSecurity(relation, enabled),
              done: `Row Level Security ${enabled ? 'enabled' : 'disabled'}`,
              destructive: !enabled,
            })
          }
        />
        <p className="te-muted">
          {relation.rls_enabled
            ? 'Only rows the policies below allow are read or written through the API.'
            : 'Without Row Level Security, the API roles reach every row their grants allow.'}
        </p>
        {canWrite ? (
          <Button size="sm" variant="primary" icon={<Plus size={14} aria-hidden="true" />} onClick={() => setCreating(true)}>
            New policy
          </Button>
        ) : null}
      </div>
      {relation.policies.length === 0 ? (
        <p className="te-muted te-policies-empty">No policies on this table.</p>
      ) : (
        <table className="te-definition-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Command</th>
              <th>Roles</th>
              <th>USING</th>
              <th>WITH CHECK</th>
              {canWrite ? <th><span className="visually-hidden">Actions</span></th> : null}
            </tr>
          </thead>
          <tbody>
            {relation.policies.map((policy) => (
              <tr key={policy.name}>
                <td>
                  {policy.name}
                  {policy.permissive ? null : <span className="te-muted"> (restrictive)</span>}
                </td>
                <td>{policy.command}</td>
                <td>{policy.roles.join(', ')}</td>
                <td className="te-mono">{policy.using ?? ''}</td>
                <td className="te-mono">{policy.with_check ?? ''}</td>
                {canWrite ? (
                  <td>
                    <IconButton
                      label={`Delete policy ${policy.name}`}
                      icon={<Trash2 size={14} aria-hidden="true" />}
                      onClick={() => onPreview({ title: `Delete policy ${policy.name}`, sql: buildDropPolicy(relation, policy.name), done: `Policy ${policy.name} deleted`, destructive: true })}
                    />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {creating ? <PolicyDialog projectRef={projectRef} relation={relation} onClose={() => setCreating(false)} onPreview={onPreview} /> : null}
    </div>
  )
}
