/**
 * `@stratum/sql/parser`: statement splitting with the real Postgres parser (libpg_query compiled
 * to WebAssembly, about 1.5 MB a Postgres major, loaded lazily on the first use). For the platform;
 * the dashboard imports the parser-free root entry (index.ts) so that no browser build carries it.
 */
export { splitSqlStatements, type SplitOptions, type SplitResult, type SplitStatement } from './split.js'
export {
  loadSqlParser,
  parseSqlTree,
  PARSER_POSTGRES_VERSIONS,
  DEFAULT_PARSER_POSTGRES_VERSION,
  type ParserPostgresVersion,
  type SqlSyntaxError,
} from './parser.js'
export { translateLogQuery, LogQueryError, LOG_STORE_TABLE, type LogQueryWindow, type TranslatedLogQuery } from './log-sql/index.js'
