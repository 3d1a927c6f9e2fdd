import { quoteLiteral } from '@stratum/sql'
import { checkedName, ObjectInputError, qualified, type ObjectName } from './input'

/** An enum value: Postgres keeps at most 63 bytes (NAMEDATALEN - 1) and no empty label. */
function checkedLabel(label: string): string {
  if (label === '') throw new ObjectInputError('An enum value cannot be empty')
  if (new TextEncoder().encode(label).length > 63) throw new ObjectInputError(`The value ${label} is longer than 63 bytes`)
  return label
}

function checkedDistinct(labels: readonly string[]): void {
  const seen = new Set<string>()
  for (const label of labels) {
    if (seen.has(label)) throw new ObjectInputError(`The value ${label} is listed twice`)
    seen.add(label)
  }
}

export function buildCreateEnum(type: ObjectName, values: readonly string[]): string {
  checkedName(type.schema, 'Schema')
  checkedName(type.name, 'Name')
  if (values.length === 0) throw new ObjectInputError('An enumerated type needs at least one value')
  values.forEach(checkedLabel)
  checkedDistinct(values)
  return `CREATE TYPE ${qualified(type)} AS ENUM (${values.map(quoteLiteral).join(', ')});`
}

/** What the edit form holds: each existing value with its (maybe new) label, then values to add at the end. */
export interface EnumChanges {
  renamed: ReadonlyArray<{ from: string; to: string }>
  added: readonly string[]
}

/**
 * Renames first (RENAME VALUE), then additions (ADD VALUE, appended in order). Values cannot be removed from an enum
 * in Postgres, so the form offers none. Returns '' when nothing changes.
 */
export function buildAlterEnum(type: ObjectName, changes: EnumChanges): string {
  const renamed = changes.renamed.filter((change) => change.from !== change.to)
  renamed.forEach((change) => checkedLabel(change.to))
  changes.added.forEach(checkedLabel)
  checkedDistinct([...changes.renamed.map((change) => change.to), ...changes.added])
  const name = qualified(type)
  return [
    ...renamed.map((change) => `ALTER TYPE ${name} RENAME VALUE ${quoteLiteral(change.from)} TO ${quoteLiteral(change.to)};`),
    ...changes.added.map((label) => `ALTER TYPE ${name} ADD VALUE ${quoteLiteral(label)};`),
  ].join('\n')
}

export function buildDropType(type: ObjectName, cascade: boolean): string {
  return `DROP TYPE ${qualified(type)}${cascade ? ' CASCADE' : ''};`
}
