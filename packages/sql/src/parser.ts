/**
 * The real Postgres parser (libpg_query compiled to WebAssembly, from @supabase/pg-parser),
 * loaded lazily so that importing this package costs nothing until a statement boundary or a
 * syntax error position is needed. One parser per Postgres major: a project may run 15, 16 or
 * 17, and their grammars differ (e.g. MERGE ... RETURNING is 17 only).
 */
import type { PgParser } from '@supabase/pg-parser'
import { codePointOffsetToIndex, utf8OffsetMapper } from './offsets.js'

export const PARSER_POSTGRES_VERSIONS = [15, 16, 17] as const
export type ParserPostgresVersion = (typeof PARSER_POSTGRES_VERSIONS)[number]
export const DEFAULT_PARSER_POSTGRES_VERSION: ParserPostgresVersion = 17

/** A statement span as the parser reports it, in UTF-16 units, untrimmed. */
export interface ParsedSpan {
  start: number
  end: number
  /** The parse node type, e.g. SelectStmt, UpdateStmt, CreateFunctionStmt. */
  nodeType: string
}

export interface SqlSyntaxError {
  message: string
  /** UTF-16 offset of the character the parser stopped at. */
  position: number
}

export type ParseOutcome = { ok: true; spans: ParsedSpan[] } | { ok: false; error: SqlSyntaxError }

type AnyPgParser = PgParser<ParserPostgresVersion>
const parsers = new Map<ParserPostgresVersion, Promise<AnyPgParser>>()

function getParser(version: ParserPostgresVersion): Promise<AnyPgParser> {
  let parser = parsers.get(version)
  if (!parser) {
    parser = import('@supabase/pg-parser').then(async ({ PgParser }) => {
      const instance = new PgParser({ version }) as AnyPgParser
      await instance.ready
      return instance
    })
    // A failed load (say, the WebAssembly file could not be fetched) may succeed on a retry.
    parser.catch(() => parsers.delete(version))
    parsers.set(version, parser)
  }
  return parser
}

/** Loads the parser ahead of the first use, e.g. when the editor opens. */
export async function loadSqlParser(version: ParserPostgresVersion = DEFAULT_PARSER_POSTGRES_VERSION): Promise<void> {
  await getParser(version)
}

/** Parses `sql` with the real Postgres grammar and reports statement spans or the syntax error. */
export async function parseSql(
  sql: string,
  version: ParserPostgresVersion = DEFAULT_PARSER_POSTGRES_VERSION,
): Promise<ParseOutcome> {
  const parser = await getParser(version)
  const result = await parser.parse(sql)
  if (result.error) {
    return { ok: false, error: { message: result.error.message, position: codePointOffsetToIndex(sql, result.error.position) } }
  }
  const toIndex = utf8OffsetMapper(sql)
  const stmts = (result.tree.stmts ?? []) as Array<{ stmt?: object; stmt_location?: number; stmt_len?: number }>
  const spans = stmts.map((raw) => {
    const startByte = raw.stmt_location ?? 0
    const start = toIndex(startByte)
    // A length of 0 means "to the end of the input" (the last statement, unterminated).
    const end = raw.stmt_len ? toIndex(startByte + raw.stmt_len) : sql.length
    return { start, end, nodeType: Object.keys(raw.stmt ?? {})[0] ?? 'Unknown' }
  })
  return { ok: true, spans }
}

/** The parse tree's statements (libpg_query's JSON, Postgres 17 grammar), or the syntax error. */
export async function parseSqlTree(sql: string): Promise<{ ok: true; stmts: Record<string, unknown>[] } | { ok: false; error: SqlSyntaxError }> {
  const parser = await getParser(DEFAULT_PARSER_POSTGRES_VERSION)
  const result = await parser.parse(sql)
  if (result.error) return { ok: false, error: { message: result.error.message, position: codePointOffsetToIndex(sql, result.error.position) } }
  const stmts = (result.tree.stmts ?? []) as Array<{ stmt?: Record<string, unknown> }>
  return { ok: true, stmts: stmts.map((raw) => raw.stmt ?? {}) }
}
