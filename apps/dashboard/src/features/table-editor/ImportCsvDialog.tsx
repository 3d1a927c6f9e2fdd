import { buildCopyFrom, buildCreateTable, buildDropTable, columnNamesFromHeader, CSV_DELIMITERS, TableEditorInputError, type ColumnSpec, type CsvDelimiter } from '@stratum/sql'
import { TABLE_IMPORT_MAX_BYTES } from '@stratum/contracts'
import { useMemo, useRef, useState } from 'react'
import { Alert } from '../../components/ui/Alert'
import { Button } from '../../components/ui/Button'
import { Dialog } from '../../components/ui/Dialog'
import { Select, TextField } from '../../components/ui/Field'
import { useToast } from '../../components/ui/Toast'
import { errorMessage } from '../../data/api'
import { CsvImportError } from '../../data/table-editor/importCsv'
import type { EditorRelation } from '../../data/table-editor/types'
import { useImportCsv } from '../../data/table-editor/useImportCsv'
import { useRunTableSql } from '../../data/table-editor/useRunTableSql'
import { CsvPreviewTable } from './CsvPreviewTable'
import { DELIMITER_LABELS, detectDelimiter, formatBytes, previewOf, readSample, tableNameFromFile, typeSampleOf, type CsvSample } from './csv-file'
import { IMPORT_TYPES, inferImportType } from './csv-types'
import './table-editor-import.css'


const plainColumn = (name: string, type: string): ColumnSpec => ({ name, type, default: { kind: 'none' }, nullable: true, unique: false, primaryKey: false, identity: 'none' })
const ID_COLUMN: ColumnSpec = { ...plainColumn('id', 'int8'), nullable: false, primaryKey: true, identity: 'by default' }

interface ImportCsvDialogProps {
  projectRef: string
  schema: string
  /** The table to import into; without it, a new table is created from the file's columns first. */
  relation?: EditorRelation
  onClose: () => void
  /** After a successful import, with the table's name. */
  onImported: (table: string) => void
}

interface Plan {
  table: string
  columns: string[]
  create?: string
  copy: string
}

/**
 * CSV import: a preview of the file's first rows (only its first KB are read here), the file's
 * columns matched to the table's (or named and typed for a new table), the SQL shown, then the file
 * streamed to the server's COPY with the upload's progress.
 */
export function ImportCsvDialog({ projectRef, schema, relation, onClose, onImported }: ImportCsvDialogProps) {
  const toast = useToast()
  const upload = useImportCsv(projectRef)
  const runSql = useRunTableSql(projectRef)
  const [file, setFile] = useState<File>()
  const [sample, setSample] = useState<CsvSample>()
  const [header, setHeader] = useState(true)
  const [delimiter, setDelimiter] = useState<CsvDelimiter>(',')
  const [mapping, setMapping] = useState<string[]>([])
  const [tableName, setTableName] = useState('')
  const [newColumns, setNewColumns] = useState<Array<{ name: string; type: string }>>([])
  const [addId, setAddId] = useState(true)
  const [rls, setRls] = useState(true)
  const [progress, setProgress] = useState<{ sent: number; total: number } | undefined>()
  const [running, setRunning] = useState(false)
  const [failure, setFailure] = useState<{ title: string; message: string; line?: number }>()
  const abort = useRef<AbortController | undefined>(undefined)

  const preview = useMemo(() => (sample ? previewOf(sample, delimiter) : undefined), [sample, delimiter])
  const firstRow = preview?.rows[0]
  const names = useMemo(() => (firstRow ? (header ? columnNamesFromHeader(firstRow) : firstRow.map((_, index) => `column_${index + 1}`)) : []), [firstRow, header])

  /**
   * Columns follow the file: matched by name to the table's, or, for a new table, named from the header and typed from
   * the sampled values (`rows`, the header left out).
   */
  const resetColumns = (fieldNames: string[], rows: string[][]) => {
    if (relation) {
      const taken = new Set<string>()
      setMapping(
        fieldNames.map((name) => {
          const match =
            relation.columns.find((column) => column.name === name && !taken.has(column.name)) ??
            relation.columns.find((column) => column.name.toLowerCase() === name.toLowerCase() && !taken.has(column.name))
          if (match) taken.add(match.name)
          return match?.name ?? ''
        }),
      )
    } else {
      setNewColumns(fieldNames.map((name, index) => ({ name, type: inferImportType(rows.map((row) => row[index])) })))
      setAddId(!fieldNames.some((name) => name.toLowerCase() === 'id'))
    }
  }
  /** The columns' names and the sampled rows under them, for resetColumns. */
  const columnsOf = (next: CsvSample, nextDelimiter: CsvDelimiter, nextHeader: boolean): [string[], string[][]] => {
    const rows = typeSampleOf(next, nextDelimiter)
    const row = rows[0] ?? []
    return nextHeader ? [columnNamesFromHeader(row), rows.slice(1)] : [row.map((_, index) => `column_${index + 1}`), rows]
  }

  const pickFile = async (picked: File | undefined) => {
    setFailure(undefined)
    setFile(picked)
    setSample(undefined)
    if (!picked) return
    const read = await readSample(picked)
    const detected = detectDelimiter(read.text)
    setSample(read)
    setDelimiter(detected)
    if (!relation) setTableName(tableNameFromFile(picked.name))
    resetColumns(...columnsOf(read, detected, header))
  }

  const plan = useMemo((): Plan | { problem: string } | undefined => {
    if (!file || !preview) return undefined
    if (names.length === 0) return { problem: 'The file has no rows to preview: is it empty?' }
    if (file.size > TABLE_IMPORT_MAX_BYTES) return { problem: `The file is larger than the ${formatBytes(TABLE_IMPORT_MAX_BYTES)} an import takes` }
    try {
      if (relation) {
        if (mapping.length !== names.length || mapping.some((column) => !column)) return { problem: 'Choose a table column for every column of the file' }
        return { table: relation.name, columns: mapping, copy: buildCopyFrom({ schema: relation.schema, table: relation.name, columns: mapping, header, delimiter }) }
      }
      const table = tableName.trim()
      const columns = newColumns.map((column) => column.name.trim())
      const create = buildCreateTable({
        schema,
        name: table,
        enableRls: rls,
        columns: [...(addId ? [ID_COLUMN] : []), ...newColumns.map((column, index) => plainColumn(columns[index]!, column.type))],
      })
      return { table, columns, create, copy: buildCopyFrom({ schema, table, columns, header, delimiter }) }
    } catch (error) {
      if (error instanceof TableEditorInputError) return { problem: error.message }
      throw error
    }
  }, [file, preview, names, relation, mapping, header, delimiter, tableName, newColumns, rls, addId, schema])
  const ready = plan && 'copy' in plan ? plan : undefined

  const start = async () => {
    if (!ready || !file) return
    setFailure(undefined)
    setRunning(true)
    setProgress({ sent: 0, total: file.size })
    const controller = new AbortController()
    abort.current = controller
    const target = { schema: relation?.schema ?? schema, name: ready.table }
    let created = false
    try {
      if (ready.create) {
        await runSql.mutateAsync(ready.create)
        created = true
      }
      const rows = await upload.mutateAsync({
        schema: target.schema, table: ready.table, columns: ready.columns, header, delimiter, file, signal: controller.signal,
        onProgress: (sent, total) => setProgress({ sent, total }),
      })
      toast.success(`Imported ${rows.toLocaleString('en-US')} ${rows === 1 ? 'row' : 'rows'} into ${ready.table}`)
      onImported(ready.table)
    } catch (error) {
      // All or nothing for a new table too: the empty table made for this file goes again.
      const dropped = created ? await runSql.mutateAsync(buildDropTable(target, false)).then(() => true, () => false) : false
      const cancelled = error instanceof DOMException && error.name === 'AbortError'
      const title = cancelled ? 'The import was cancelled: no rows were imported' : created && !dropped ? `The import failed; table ${ready.table} was created and left empty` : 'The import failed: no rows were imported'
      setFailure({ title, message: cancelled ? '' : errorMessage(error), line: error instanceof CsvImportError ? error.line : undefined })
    } finally {
      setRunning(false)
      setProgress(undefined)
      abort.current = undefined
    }
  }

  const close = () => {
    abort.current?.abort()
    onClose()
  }
  const dataRows = preview ? preview.rows.slice(header ? 1 : 0) : []
  const percent = progress && progress.total > 0 ? Math.min(100, Math.round((progress.sent / progress.total) * 100)) : 0

  return (
    <Dialog
      open
      onOpenChange={(open) => !open && close()}
      dismissOnOutsideClick={!running}
      title={relation ? `Import CSV into ${relation.name}` : `New table from CSV in ${schema}`}
      footer={
        <>
          <Button variant="ghost" onClick={close}>
            Cancel
          </Button>
          <Button variant="primary" disabled={!ready || running} loading={running} onClick={() => void start()}>
            {file ? `Import ${formatBytes(file.size)}` : 'Import'}
          </Button>
        </>
      }
    >
      <div className="te-import">
        <label className="te-import-file">
          <span className="field-label">CSV file</span>
          <input type="file" accept=".csv,.tsv,.txt,text/csv" disabled={running} onChange={(event) => void pickFile(event.target.files?.[0])} />
        </label>
        {file && preview ? (
          <>
            <div className="te-import-options">
              <label className="te-check">
                <input
                  type="checkbox"
                  checked={header}
                  disabled={running}
                  onChange={(event) => {
                    setHeader(event.target.checked)
                    if (sample) resetColumns(...columnsOf(sample, delimiter, event.target.checked))
                  }}
                />
                First line is a header
              </label>
              <Select
                aria-label="Delimiter"
                value={delimiter}
                disabled={running}
                onChange={(event) => {
                  const next = event.target.value as CsvDelimiter
                  setDelimiter(next)
                  if (sample) resetColumns(...columnsOf(sample, next, header))
                }}
              >
                {CSV_DELIMITERS.map((value) => (
                  <option key={value} value={value}>
                    {DELIMITER_LABELS[value]}
                  </option>
                ))}
              </Select>
            </div>
            <CsvPreviewTable names={names} rows={dataRows} more={preview.truncated || !sample?.complete} />
            {relation ? (
              <fieldset className="te-import-columns" disabled={running}>
                <legend className="te-form-heading">Columns of the file → columns of {relation.name}</legend>
                {names.map((name, index) => (
                  <div key={index} className="te-import-column">
                    <span className="te-import-field" title={name}>
                      {name}
                    </span>
                    <span aria-hidden="true">→</span>
                    <Select aria-label={`Table column for ${name}`} value={mapping[index] ?? ''} onChange={(event) => setMapping((current) => current.map((value, at) => (at === index ? event.target.value : value)))}>
                      <option value="">Choose a column…</option>
                      {relation.columns
                        .filter((column) => !column.isGenerated)
                        .map((column) => (
                          <option key={column.name} value={column.name}>
                            {column.name} ({column.dataType})
                          </option>
                        ))}
                    </Select>
                  </div>
                ))}
              </fieldset>
            ) : (
              <fieldset className="te-import-columns" disabled={running}>
                <TextField label="Table name" value={tableName} onChange={(event) => setTableName(event.target.value)} />
                <label className="te-check">
                  <input type="checkbox" checked={addId} onChange={(event) => setAddId(event.target.checked)} />
                  Add an id column (int8 identity primary key), so rows can be edited
                </label>
                <label className="te-check">
                  <input type="checkbox" checked={rls} onChange={(event) => setRls(event.target.checked)} />
                  Enable Row Level Security (recommended: the API reads and writes only what policies allow)
                </label>
                <h3 className="te-form-heading">Columns</h3>
                {newColumns.map((column, index) => (
                  <div key={index} className="te-import-column">
                    <input
                      className="input"
                      aria-label={`Name of column ${index + 1}`}
                      value={column.name}
                      onChange={(event) => setNewColumns((current) => current.map((item, at) => (at === index ? { ...item, name: event.target.value } : item)))}
                    />
                    <Select
                      aria-label={`Type of column ${index + 1}`}
                      value={column.type}
                      onChange={(event) => setNewColumns((current) => current.map((item, at) => (at === index ? { ...item, type: event.target.value } : item)))}
                    >
                      {IMPORT_TYPES.map((type) => (
                        <option key={type} value={type}>
                          {type}
                        </option>
                      ))}
                    </Select>
                  </div>
                ))}
              </fieldset>
            )}
            {plan && 'problem' in plan ? <Alert tone="warning" title={plan.problem} live={false} /> : null}
            {ready ? (
              <div>
                <div className="field-label">SQL to run (the file streams into the COPY, all rows or none)</div>
                <pre className="te-sql-preview" aria-label="SQL to run">
                  {[ready.create, `${ready.copy};`].filter(Boolean).join('\n')}
                </pre>
              </div>
            ) : null}
          </>
        ) : file ? (
          <div className="te-muted">Reading the start of {file.name}…</div>
        ) : (
          <div className="te-muted">Choose a CSV file: its first rows are previewed here before anything is imported.</div>
        )}
        {progress ? (
          <div className="te-import-progress" role="status">
            <progress max={100} value={percent} aria-label="Upload progress" />
            <span>
              {percent < 100 ? `Uploading… ${percent}% of ${formatBytes(progress.total)}` : 'Uploaded: Postgres is writing the rows…'}
            </span>
          </div>
        ) : null}
        {failure ? (
          <Alert tone="danger" title={failure.title}>
            {failure.line ? <span className="te-error-message">Line {failure.line} of the file</span> : null}
            {failure.message ? <span className="te-import-error">{failure.message}</span> : null}
          </Alert>
        ) : null}
      </div>
    </Dialog>
  )
}
