import pg from 'pg'

/**
 * Rows encoded as JSON text straight from Postgres's text format, one string per row.
 *
 * Why: building a JS object per row (pg's type parsing) and then serializing it again is where a
 * query route spends its time on large results. Most column types map to JSON from their text
 * without parsing: integers are JSON numbers, text is a JSON string, json/jsonb already are JSON.
 * Every other type goes through the same parser pg would use and JSON.stringify, so the client
 * reads exactly the values it read when the rows were objects.
 */
export type JsonRows = string[]

type Encode = (text: string) => string

const asString: Encode = (text) => JSON.stringify(text)
const asIs: Encode = (text) => text
const asBoolean: Encode = (text) => (text === 't' ? 'true' : 'false')
/**
 * int8 as @supabase/postgres-meta answers it (and clients such as the official MCP server expect): a
 * JSON number when it is exact (|n| <= 2^53 - 1), else the string of its digits, so nothing is lost.
 */
export const int8Value = (text: string): number | string => {
  const value = Number(text)
  return Number.isSafeInteger(value) ? value : text
}
const asInt8: Encode = (text) => (Number.isSafeInteger(Number(text)) ? text : JSON.stringify(text))
// parseFloat as pg does: NaN and the infinities become null, as JSON.stringify writes them.
const asFloat: Encode = (text) => JSON.stringify(parseFloat(text))

/** Type oids whose text is encoded without pg's parser. */
const ENCODERS = new Map<number, Encode>([
  [16, asBoolean], // bool
  [21, asIs], // int2
  [23, asIs], // int4
  [26, asIs], // oid
  [700, asFloat], // float4
  [701, asFloat], // float8
  [114, asIs], // json: Postgres checked it is JSON
  [3802, asIs], // jsonb: written by Postgres in canonical JSON
  [20, asInt8], // int8: a number when exact
  // pg leaves these as strings: numeric (no loss of precision), text-like types.
  [1700, asString], // numeric
  [25, asString], // text
  [1043, asString], // varchar
  [1042, asString], // bpchar
  [19, asString], // name
  [18, asString], // char
  [2950, asString], // uuid
])

export interface JsonRowEncoder {
  encode(values: ReadonlyArray<string | null>): string
}

/** Builds the encoder of a result's rows from its field descriptions. */
export function jsonRowEncoder(fields: ReadonlyArray<{ name: string; dataTypeID: number }>, types: pg.CustomTypesConfig): JsonRowEncoder {
  const prefixes = fields.map((field, index) => `${index === 0 ? '{' : ','}${JSON.stringify(field.name)}:`)
  const encoders = fields.map((field) => {
    const fast = ENCODERS.get(field.dataTypeID)
    if (fast) return fast
    // The result types may keep a type as text (e.g. timestamps, to keep their exact value).
    const parse = types.getTypeParser(field.dataTypeID, 'text') as (text: string) => unknown
    return (text: string) => JSON.stringify(parse(text)) ?? 'null'
  })
  return {
    encode(values) {
      if (values.length === 0) return '{}'
      let json = ''
      for (let i = 0; i < values.length; i++) {
        const value = values[i]
        json += prefixes[i]! + (value === null || value === undefined ? 'null' : encoders[i]!(value))
      }
      return json + '}'
    },
  }
}

/** JSON text of an array of encoded rows. */
export function jsonRowsArray(rows: JsonRows): string {
  return `[${rows.join(',')}]`
}
