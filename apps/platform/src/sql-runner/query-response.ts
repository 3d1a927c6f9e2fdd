import type { SqlQueryResponse } from '@stratum/contracts'
import { jsonRowsArray } from './json-rows.js'
import type { EncodedStatementResult } from './runner.js'

/** The SQL route's answer before it is written: its results still hold rows as JSON text. */
export type EncodedQueryResponse = Omit<SqlQueryResponse, 'results'> & { results: EncodedStatementResult[] } & Record<string, unknown>

/** An object's JSON with more members written in front: `{"k":v,...rest}`. */
function withLeadingMember(name: string, json: string, rest: object): string {
  const tail = JSON.stringify(rest)
  return `{${JSON.stringify(name)}:${json}${tail === '{}' ? '}' : `,${tail.slice(1)}`}`
}

/**
 * JSON text of a query answer (SqlQueryResponse, or its error form with message and code). The
 * rows are already JSON (json-rows.ts) and are joined in, never parsed or serialized again.
 */
export function queryResponseJson({ results, ...rest }: EncodedQueryResponse): string {
  const resultsJson = `[${results.map(({ rows, ...result }) => withLeadingMember('rows', jsonRowsArray(rows), result)).join(',')}]`
  return withLeadingMember('results', resultsJson, rest)
}
