/** A column heading; `{ hidden }` is read by screen readers only (e.g. an actions column). */
export type TableColumn = string | { hidden: string }

/** The header row of a data table: one `th scope="col"` per column. */
export function TableHead({ columns }: { columns: readonly TableColumn[] }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th key={column} scope="col">
              {column}
            </th>
          ) : (
            <th key={column.hidden} scope="col">
              <span className="visually-hidden">{column.hidden}</span>
            </th>
          ),
        )}
      </tr>
    </thead>
  )
}
