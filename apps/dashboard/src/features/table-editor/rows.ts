/** A table editor row: each column's value as the text Postgres renders it (null for NULL). */
export type EditorRow = Record<string, string | null>

/** A row's identity for selection: its primary key values. */
export const rowKeyOf = (keyColumns: readonly string[]) => (row: EditorRow) => JSON.stringify(keyColumns.map((column) => row[column] ?? null))
