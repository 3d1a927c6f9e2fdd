import { quoteIdentifier } from '../literals.js'
import { qualifiedName, TableEditorInputError } from './names.js'

/**
 * CSV import into a table: the COPY statement the server runs (and the dashboard shows before the
 * upload), and a parser for the first few KB of a file, for the preview and the header's names.
 */

/** Field separators an import may use: COPY takes one character, and these are the ones files use. */
export const CSV_DELIMITERS = [',', ';', '\t', '|'] as const
export type CsvDelimiter = (typeof CSV_DELIMITERS)[number]

export interface CopyFromSpec {
  schema: string
  table: string
  columns: readonly string[]
  /** The first line holds the columns' names and is skipped. */
  header: boolean
  delimiter: CsvDelimiter
}

/** The UTF-8 length of a name in bytes (this package runs in the browser and in Node, without DOM or Node types). */
function utf8Length(text: string): number {
  let bytes = 0
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4
  }
  return bytes
}

/**
 * A name as Postgres will use it: longer than 63 bytes it would be truncated silently, and could
 * then name another column or table than the one the user chose.
 */
export function checkedImportName(name: string, what: string): string {
  if (name.length === 0) throw new TableEditorInputError(`The ${what} name is empty`)
  if (utf8Length(name) > 63) throw new TableEditorInputError(`The ${what} name ${name} is longer than 63 bytes`)
  if (name.includes('\u0000')) throw new TableEditorInputError(`The ${what} name contains a NUL character`)
  return name
}

export function buildCopyFrom(spec: CopyFromSpec): string {
  const table = qualifiedName({ schema: checkedImportName(spec.schema, 'schema'), name: checkedImportName(spec.table, 'table') })
  if (spec.columns.length === 0) throw new TableEditorInputError('Choose at least one column to import into')
  const seen = new Set<string>()
  for (const column of spec.columns) {
    checkedImportName(column, 'column')
    if (seen.has(column)) throw new TableEditorInputError(`Column ${column} is chosen twice`)
    seen.add(column)
  }
  if (!(CSV_DELIMITERS as readonly string[]).includes(spec.delimiter)) throw new TableEditorInputError('Unsupported delimiter')
  const delimiter = spec.delimiter === '\t' ? "E'\\t'" : `'${spec.delimiter}'`
  const columns = spec.columns.map(quoteIdentifier).join(', ')
  return `COPY ${table} (${columns}) FROM STDIN WITH (FORMAT csv, HEADER ${spec.header ? 'true' : 'false'}, DELIMITER ${delimiter})`
}

export interface CsvPreview {
  /** Complete records found in the sample, at most `maxRows`. */
  rows: string[][]
  /** The sample ended inside a record (the file goes on past the sample). */
  truncated: boolean
}

/**
 * Parses the start of a CSV text as COPY's csv format reads it: fields separated by `delimiter`,
 * double quotes around a field that holds the delimiter, quotes or line breaks, `""` for a quote
 * inside; CRLF or LF line ends. A record cut off by the end of the sample is left out when
 * `complete` is false (the sample is a slice of a larger file).
 */
export function parseCsvSample(text: string, delimiter: CsvDelimiter, options: { maxRows: number; complete: boolean }): CsvPreview {
  const rows: string[][] = []
  let record: string[] = []
  let field = ''
  let quoted = false
  let index = 0
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  const endRecord = () => {
    record.push(field)
    rows.push(record)
    record = []
    field = ''
  }
  while (index < source.length && rows.length < options.maxRows) {
    const char = source[index]!
    if (quoted) {
      if (char === '"') {
        if (source[index + 1] === '"') {
          field += '"'
          index += 1
        } else quoted = false
      } else field += char
    } else if (char === '"') quoted = true
    else if (char === delimiter) {
      record.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[index + 1] === '\n') index += 1
      endRecord()
    } else field += char
    index += 1
  }
  if (rows.length >= options.maxRows) return { rows, truncated: index < source.length }
  const pending = field.length > 0 || record.length > 0 || quoted
  if (pending && options.complete && !quoted) endRecord()
  return { rows, truncated: pending && !options.complete }
}

/** Column names for a new table from a CSV header: trimmed, blanks named column_N, repeats numbered. */
export function columnNamesFromHeader(header: readonly string[]): string[] {
  const used = new Set<string>()
  return header.map((raw, index) => {
    let name = raw.trim() || `column_${index + 1}`
    // Cut at 63 bytes without splitting a character: Postgres would truncate it anyway.
    while (utf8Length(name) > 63) name = Array.from(name).slice(0, -1).join('')
    let unique = name
    for (let n = 2; used.has(unique); n++) unique = `${name.slice(0, 58)}_${n}`
    used.add(unique)
    return unique
  })
}
