/** The column types a CSV import offers for a new table. */
export const IMPORT_TYPES = ['text', 'int8', 'int4', 'numeric', 'float8', 'bool', 'date', 'timestamp', 'timestamptz', 'uuid', 'jsonb'] as const
export type ImportType = (typeof IMPORT_TYPES)[number]

const INTEGER = /^[-+]?\d{1,19}$/
const NUMBER = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/
const BOOLEAN = /^(true|false)$/i
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const DATE = /^\d{4}-\d{2}-\d{2}$/
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$/
const TIMESTAMPTZ = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}(:?\d{2})?)$/
const BIGINT_MAX = 9223372036854775807n

const validDate = (text: string) => !Number.isNaN(Date.parse(`${text.slice(0, 10)}T00:00:00Z`))

function fits(type: ImportType, value: string): boolean {
  switch (type) {
    case 'int8': {
      if (!INTEGER.test(value)) return false
      const number = BigInt(value)
      return number <= BIGINT_MAX && number >= -BIGINT_MAX - 1n
    }
    case 'numeric':
      return NUMBER.test(value)
    case 'bool':
      return BOOLEAN.test(value)
    case 'uuid':
      return UUID.test(value)
    case 'date':
      return DATE.test(value) && validDate(value)
    case 'timestamp':
      return TIMESTAMP.test(value) && validDate(value)
    case 'timestamptz':
      return TIMESTAMPTZ.test(value) && validDate(value)
    case 'jsonb':
      if (!/^[[{]/.test(value)) return false
      try {
        JSON.parse(value)
        return true
      } catch {
        return false
      }
    default:
      return true
  }
}

/** Tried in this order: the narrowest type every sampled value fits. */
const CANDIDATES: ImportType[] = ['int8', 'numeric', 'bool', 'uuid', 'date', 'timestamp', 'timestamptz', 'jsonb']

/**
 * A new table's column type from the file's sampled values, as Studio's import guesses it: the first type that every
 * non-empty value fits (empty values import as NULL), text when none does or nothing was sampled. The user can still
 * change it before the import; a later row that does not fit fails the import with Postgres's message and its line.
 */
export function inferImportType(values: Array<string | null | undefined>): ImportType {
  const present = values.map((value) => (value ?? '').trim()).filter((value) => value !== '')
  if (present.length === 0) return 'text'
  return CANDIDATES.find((type) => present.every((value) => fits(type, value))) ?? 'text'
}
