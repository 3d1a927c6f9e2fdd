import type { DestructiveOperation } from '@stratum/sql'

/** How the destructive warning names one operation: the statement, what it acts on, and what happens to the data. */
export interface DestructiveLine {
  statement: string
  target: string
  effect: string
}

/** The objects a DROP takes data away with (a dropped policy, function or index holds none). */
const HOLDS_DATA = /^DROP (TABLE|FOREIGN TABLE|MATERIALIZED VIEW|SCHEMA|DATABASE|SEQUENCE|OWNED BY|EXTENSION)$/

export function describeDestructive(operation: DestructiveOperation): DestructiveLine {
  const target = operation.targets.join(', ') || 'an object the editor could not name'
  switch (operation.kind) {
    case 'delete':
      return operation.everyRow
        ? { statement: 'DELETE without a WHERE clause', target, effect: 'deletes every row of the table' }
        : { statement: 'DELETE', target, effect: 'deletes the rows it matches' }
    case 'drop':
      return { statement: operation.command, target, effect: HOLDS_DATA.test(operation.command) ? 'removes it and everything stored in it' : 'removes it' }
    case 'truncate':
      return { statement: 'TRUNCATE', target, effect: 'deletes every row of the table' }
    case 'alter-table-drop-column':
      return { statement: `ALTER TABLE ... DROP COLUMN ${operation.column ?? ''}`.trim(), target, effect: 'removes the column and its values in every row' }
    case 'update-without-where':
      return { statement: 'UPDATE without a WHERE clause', target, effect: 'changes every row of the table' }
  }
}
