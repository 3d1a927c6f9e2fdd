import { DEFAULT_EXPRESSIONS, FOREIGN_KEY_ACTIONS, type ForeignKeyActionName } from '@stratum/sql'
import { Link2, Trash2 } from 'lucide-react'
import { Button, IconButton } from '../../components/ui/Button'
import { Select } from '../../components/ui/Field'
import { useEditorChoices, useEntities, useRelation } from '../../data/table-editor/useCatalog'
import { typeOptions, type ColumnDraft } from './column-draft'

interface ColumnFieldsProps {
  projectRef: string
  schema: string
  draft: ColumnDraft
  index: number
  onChange: (next: ColumnDraft) => void
  onRemove?: () => void
}

function Check({ label, checked, onChange, disabled }: { label: string; checked: boolean; onChange: (checked: boolean) => void; disabled?: boolean }) {
  return (
    <label className="te-check">
      <input type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onChange(event.target.checked)} />
      {label}
    </label>
  )
}

/** The referenced table and column of a foreign key, and what happens on delete and update. */
function ReferenceFields({ projectRef, schema, draft, index, onChange }: Omit<ColumnFieldsProps, 'onRemove'>) {
  const references = draft.references
  const tables = useEntities(projectRef, references?.schema ?? schema)
  const targetId = tables.data?.find((entity) => entity.name === references?.table)?.id
  const target = useRelation(projectRef, targetId)
  if (!references) return null
  const set = (next: Partial<NonNullable<ColumnDraft['references']>>) => onChange({ ...draft, references: { ...references, ...next } })
  const label = `column ${index + 1}`
  return (
    <div className="te-column-line te-reference">
      <span className="te-muted">references</span>
      <Select aria-label={`Referenced table for ${label}`} value={references.table} onChange={(event) => set({ table: event.target.value, column: '' })}>
        <option value="">Table…</option>
        {(tables.data ?? [])
          .filter((entity) => entity.type === 'table' || entity.type === 'partitioned table')
          .map((entity) => (
            <option key={entity.id} value={entity.name}>
              {entity.schema}.{entity.name}
            </option>
          ))}
      </Select>
      <Select aria-label={`Referenced column for ${label}`} value={references.column} onChange={(event) => set({ column: event.target.value })}>
        <option value="">Column…</option>
        {(target.data?.columns ?? []).map((column) => (
          <option key={column.name} value={column.name}>
            {column.name} ({column.dataType})
          </option>
        ))}
      </Select>
      <Select aria-label={`On delete for ${label}`} value={references.onDelete} onChange={(event) => set({ onDelete: event.target.value as ForeignKeyActionName })}>
        {FOREIGN_KEY_ACTIONS.map((action) => (
          <option key={action} value={action}>
            on delete {action.toLowerCase()}
          </option>
        ))}
      </Select>
      <Select aria-label={`On update for ${label}`} value={references.onUpdate} onChange={(event) => set({ onUpdate: event.target.value as ForeignKeyActionName })}>
        {FOREIGN_KEY_ACTIONS.map((action) => (
          <option key={action} value={action}>
            on update {action.toLowerCase()}
          </option>
        ))}
      </Select>
    </div>
  )
}

/** One column of the create-table or add-column form: name, type, default, constraints, identity and foreign key. */
export function ColumnFields({ projectRef, schema, draft, index, onChange, onRemove }: ColumnFieldsProps) {
  const choices = useEditorChoices(projectRef)
  const set = (next: Partial<ColumnDraft>) => onChange({ ...draft, ...next })
  const label = `column ${index + 1}`
  const types = typeOptions(choices.data)
  return (
    <fieldset className="te-column">
      <legend className="visually-hidden">Column {index + 1}</legend>
      <div className="te-column-line">
        <input className="input te-column-name" aria-label={`Name of ${label}`} placeholder="column_name" value={draft.name} onChange={(event) => set({ name: event.target.value })} />
        <input className="input te-column-type" aria-label={`Type of ${label}`} list="te-type-options" value={draft.type} onChange={(event) => set({ type: event.target.value })} />
        <datalist id="te-type-options">
          {types.map((type) => (
            <option key={type.value} value={type.value}>
              {type.label}
            </option>
          ))}
        </datalist>
        {onRemove ? <IconButton label={`Remove ${label}`} icon={<Trash2 size={14} aria-hidden="true" />} onClick={onRemove} /> : null}
      </div>
      <div className="te-column-line">
        <Select
          aria-label={`Default of ${label}`}
          value={draft.defaultKind}
          disabled={draft.identity !== 'none'}
          onChange={(event) => {
            const kind = event.target.value as ColumnDraft['defaultKind']
            set({ defaultKind: kind, defaultText: kind === 'expression' ? DEFAULT_EXPRESSIONS[0] : '' })
          }}
        >
          <option value="none">no default</option>
          <option value="value">default value</option>
          <option value="expression">default expression</option>
        </Select>
        {draft.defaultKind === 'value' ? (
          <input className="input" aria-label={`Default value of ${label}`} placeholder="value" value={draft.defaultText} onChange={(event) => set({ defaultText: event.target.value })} />
        ) : draft.defaultKind === 'expression' ? (
          <Select aria-label={`Default expression of ${label}`} value={draft.defaultText} onChange={(event) => set({ defaultText: event.target.value })}>
            {DEFAULT_EXPRESSIONS.map((expression) => (
              <option key={expression} value={expression}>
                {expression}
              </option>
            ))}
          </Select>
        ) : null}
      </div>
      <div className="te-column-line">
        <Check label="Primary key" checked={draft.primaryKey} onChange={(primaryKey) => set({ primaryKey, nullable: primaryKey ? false : draft.nullable })} />
        <Check label="Nullable" checked={draft.nullable && !draft.primaryKey} disabled={draft.primaryKey} onChange={(nullable) => set({ nullable })} />
        <Check label="Unique" checked={draft.unique} onChange={(unique) => set({ unique })} />
        <Select
          aria-label={`Identity of ${label}`}
          value={draft.identity}
          onChange={(event) => set({ identity: event.target.value as ColumnDraft['identity'], defaultKind: 'none', defaultText: '' })}
        >
          <option value="none">not identity</option>
          <option value="by default">identity (by default)</option>
          <option value="always">identity (always)</option>
        </Select>
        <Button
          size="sm"
          variant={draft.references ? 'secondary' : 'ghost'}
          icon={<Link2 size={13} aria-hidden="true" />}
          aria-pressed={draft.references !== undefined}
          onClick={() => set({ references: draft.references ? undefined : { schema, table: '', column: '', onDelete: 'NO ACTION', onUpdate: 'NO ACTION' } })}
        >
          Foreign key
        </Button>
      </div>
      <ReferenceFields projectRef={projectRef} schema={schema} draft={draft} index={index} onChange={onChange} />
    </fieldset>
  )
}
