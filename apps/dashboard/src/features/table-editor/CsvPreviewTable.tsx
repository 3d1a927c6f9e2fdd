/** The first rows of a CSV file as the import will read them, under the names they will get. */
export function CsvPreviewTable({ names, rows, more }: { names: string[]; rows: string[][]; more: boolean }) {
  return (
    <div className="te-import-preview">
      <table aria-label="Preview of the file">
        <thead>
          <tr>
            {names.map((name, index) => (
              <th key={index} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, rowIndex) => (
            <tr key={rowIndex}>
              {names.map((_, index) => (
                <td key={index} title={row[index]}>
                  {row[index] === undefined ? <span className="te-placeholder-value">missing</span> : row[index] === '' ? <span className="te-placeholder-value">NULL</span> : row[index]}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <div className="te-import-note">{rows.length === 0 ? 'No data rows in the start of the file.' : `The first ${rows.length} rows${more ? ' of the file' : ''}.`}</div>
    </div>
  )
}
