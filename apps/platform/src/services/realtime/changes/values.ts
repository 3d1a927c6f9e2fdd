import { parse as parseArray } from 'postgres-array'

/**
 * A column's text value from the change stream as JSON, the way Supabase Realtime sends it (`to_jsonb(value::type)`):
 * numbers, booleans and JSON native, arrays as arrays, timestamps in ISO form, everything else as its text.
 */
export function jsonValue(typeName: string, value: string | null | undefined): unknown {
  if (value === null || value === undefined) return null
  if (typeName.startsWith('_')) {
    const element = typeName.slice(1)
    return parseArray(value, (item) => jsonValue(element, item))
  }
  switch (typeName) {
    case 'int2':
    case 'int4':
    case 'oid':
      return Number(value)
    case 'float4':
    case 'float8':
      // to_jsonb keeps NaN and the infinities as strings.
      return Number.isFinite(Number(value)) ? Number(value) : value
    case 'int8':
    case 'numeric': {
      // A number JSON cannot carry exactly stays text (realtime-js turns numeric columns' text into numbers itself).
      const number = Number(value)
      return Number.isFinite(number) && (typeName === 'int8' ? Number.isSafeInteger(number) : String(number) === value) ? number : value
    }
    case 'bool':
      return value === 't'
    case 'json':
    case 'jsonb':
      try {
        return JSON.parse(value)
      } catch {
        return value
      }
    case 'timestamp':
      return value.replace(' ', 'T')
    case 'timestamptz':
      // '2026-12-02 14:00:00.5+00' -> '2026-12-02T14:00:00.5+00:00'
      return value.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')
    default:
      return value
  }
}
