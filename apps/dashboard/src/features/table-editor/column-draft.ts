import { DEFAULT_EXPRESSIONS, userTypeSql, type ColumnSpec, type ForeignKeyActionName } from '@stratum/sql'
import type { EditorChoices } from '../../data/table-editor/types'

/** A column being written in the create-table or add-column form. */
export interface ColumnDraft {
  key: number
  name: string
  type: string
  defaultKind: 'none' | 'value' | 'expression'
  defaultText: string
  nullable: boolean
  unique: boolean
  primaryKey: boolean
  identity: 'none' | 'always' | 'by default'
  references: { schema: string; table: string; column: string; onDelete: ForeignKeyActionName; onUpdate: ForeignKeyActionName } | undefined
}

export const BUILTIN_TYPES = [
  'int2',
  'int4',
  'int8',
  'float4',
  'float8',
  'numeric',
  'text',
  'varchar',
  'uuid',
  'bool',
  'date',
  'time',
  'timestamp',
  'timestamptz',
  'interval',
  'json',
  'jsonb',
  'bytea',
  'text[]',
  'int4[]',
  'int8[]',
  'uuid[]',
] as const

/** Built-in types, then the project's enums as quoted schema-qualified names. */
export function typeOptions(choices: EditorChoices | undefined): Array<{ value: string; label: string }> {
  const enums = (choices?.enums ?? []).map((type) => ({ value: userTypeSql(type.schema, type.name), label: `${type.schema}.${type.name} (enum)` }))
  return [...BUILTIN_TYPES.map((type) => ({ value: type, label: type })), ...enums]
}

let serial = 0
export function newColumn(overrides: Partial<ColumnDraft> = {}): ColumnDraft {
  serial += 1
  return {
    key: serial,
    name: '',
    type: 'text',
    defaultKind: 'none',
    defaultText: '',
    nullable: true,
    unique: false,
    primaryKey: false,
    identity: 'none',
    references: undefined,
    ...overrides,
  }
}

/** The columns a new table starts with, as most tables want them. */
export function starterColumns(): ColumnDraft[] {
  return [
    newColumn({ name: 'id', type: 'int8', primaryKey: true, nullable: false, identity: 'by default' }),
    newColumn({ name: 'created_at', type: 'timestamptz', nullable: false, defaultKind: 'expression', defaultText: 'now()' }),
  ]
}

export function toColumnSpec(draft: ColumnDraft): ColumnSpec {
  return {
    name: draft.name.trim(),
    type: draft.type,
    default:
      draft.defaultKind === 'none'
        ? { kind: 'none' }
        : draft.defaultKind === 'value'
          ? { kind: 'value', text: draft.defaultText }
          : { kind: 'expression', expression: draft.defaultText || DEFAULT_EXPRESSIONS[0] },
    nullable: draft.nullable && !draft.primaryKey,
    unique: draft.unique,
    primaryKey: draft.primaryKey,
    identity: draft.identity,
    ...(draft.references ? { foreignKey: draft.references } : {}),
  }
}
