/**
 * Pure SQL logic shared by the platform and the dashboard: statement splitting (the real
 * Postgres parser, with a tolerant lexer behind it), the run gate's safety check, destructive
 * patterns, the automatic row limit, named parameters, results-grid state and log query rules.
 * No I/O: the parser's WebAssembly is loaded lazily, only by splitSqlStatements/loadSqlParser.
 */
export { tokenize, isTrivia, significantTokens, type Token, type TokenKind, type LexerOptions, type SqlDialect } from './lexer.js'
export { splitStatementsByLexer, isEmptySql, type SqlStatement } from './statements.js'
export { splitSqlStatements, type SplitOptions, type SplitResult, type SplitStatement } from './split.js'
export {
  loadSqlParser,
  PARSER_POSTGRES_VERSIONS,
  DEFAULT_PARSER_POSTGRES_VERSION,
  type ParserPostgresVersion,
  type SqlSyntaxError,
} from './parser.js'
export {
  getQueryWarning,
  WRITE_OPERATION_WARNING,
  FUNCTION_CALL_WARNING,
  RUN_CONFIRMATION_QUESTION,
  WRITE_KEYWORDS,
  ALLOWED_FUNCTIONS,
  ALLOWED_BARE_FUNCTIONS,
  type QueryWarning,
  type QueryWarningKind,
} from './safety.js'
export {
  findDestructiveOperations,
  isDestructiveSql,
  hasUpdateWithoutWhere,
  type DestructiveKind,
  type DestructiveOperation,
} from './destructive.js'
export {
  applyAutoLimit,
  shouldAppendLimit,
  NO_ROW_LIMIT,
  ROW_LIMIT_OPTIONS,
  SQL_PANEL_ROW_LIMIT,
  SQL_PANEL_ROW_LIMIT_NOTICE,
  type RowLimitOption,
  type AutoLimitResult,
} from './auto-limit.js'
export { parseParameters, parseParameterDirectives, type SqlParameter, type ParameterDirective } from './parameters.js'
export { substituteParameters, formatParameterValue, ParameterError, type ParameterDeclaration } from './substitute.js'
export { quoteLiteral, quoteIdentifier } from './literals.js'
export {
  FILTER_OPERATORS,
  formatSort,
  parseSort,
  formatFilter,
  parseFilter,
  filterOperatorAbbrev,
  filterOperatorFromAbbrev,
  type FilterOperator,
  type FilterOperatorAbbrev,
  type GridSort,
  type GridFilter,
} from './grid-state.js'
export { columnWidth, COLUMN_WIDTH_PER_CHARACTER, MIN_COLUMN_WIDTH, MAX_COLUMN_WIDTH } from './column-width.js'
export { getLogQueryError, LOG_QUERY_WITH_OR_SUBQUERY_ERROR, LOG_QUERY_ILIKE_ERROR } from './log-query.js'
export { needsWriteConnection, type QueryErrorLike } from './write-escalation.js'
