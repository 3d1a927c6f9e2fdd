import { CSV_DELIMITERS, parseCsvSample, type CsvDelimiter, type CsvPreview } from '@stratum/sql'

/** How much of a file the preview reads: enough for its first rows, never the whole file. */
const SAMPLE_BYTES = 64 * 1024
const PREVIEW_ROWS = 11

export interface CsvSample {
  /** The first bytes as text (a character cut at the end is dropped by the decoder's replacement, harmless for a preview). */
  text: string
  /** The sample is the whole file. */
  complete: boolean
}

export async function readSample(file: File): Promise<CsvSample> {
  let size = SAMPLE_BYTES
  for (;;) {
    const text = await file.slice(0, size).text()
    const complete = size >= file.size
    // A first record longer than the sample (very wide rows): read more, up to 4 MB.
    if (complete || /[\r\n]/.test(text) || size >= 4 * 1024 * 1024) return { text, complete }
    size *= 4
  }
}

/** The separator of the first line: the allowed one found most often outside quotes (a comma when none). */
export function detectDelimiter(text: string): CsvDelimiter {
  const counts = new Map<CsvDelimiter, number>()
  let quoted = false
  for (const char of text) {
    if (char === '"') quoted = !quoted
    else if (!quoted && (char === '\n' || char === '\r')) break
    else if (!quoted && (CSV_DELIMITERS as readonly string[]).includes(char)) counts.set(char as CsvDelimiter, (counts.get(char as CsvDelimiter) ?? 0) + 1)
  }
  let best: CsvDelimiter = ','
  for (const [delimiter, count] of counts) if (count > (counts.get(best) ?? 0)) best = delimiter
  return best
}

export function previewOf(sample: CsvSample, delimiter: CsvDelimiter): CsvPreview {
  return parseCsvSample(sample.text, delimiter, { maxRows: PREVIEW_ROWS, complete: sample.complete })
}

/** Rows a new table's column types are guessed from: every whole record of the sample (its first 64 KB), up to 1,000. */
const TYPE_SAMPLE_ROWS = 1000

export function typeSampleOf(sample: CsvSample, delimiter: CsvDelimiter): string[][] {
  return parseCsvSample(sample.text, delimiter, { maxRows: TYPE_SAMPLE_ROWS, complete: sample.complete }).rows
}

/** A table name from a file name: `Sales 2024.csv` -> `sales_2024`. */
export function tableNameFromFile(name: string): string {
  const base = name.replace(/\.[^.]*$/, '').toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '')
  const named = base || 'imported'
  return (/^[0-9]/.test(named) ? `t_${named}` : named).slice(0, 63)
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / 1024 / 1024).toFixed(1)} MB`
  return `${(bytes / 1024 / 1024 / 1024).toFixed(2)} GB`
}

export const DELIMITER_LABELS: Record<CsvDelimiter, string> = { ',': 'Comma (,)', ';': 'Semicolon (;)', '\t': 'Tab', '|': 'Pipe (|)' }
