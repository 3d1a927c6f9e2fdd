/**
 * Pure SQL logic shared by the platform and the dashboard: a tolerant lexer and the statement
 * boundaries it finds, the run gate's safety check, destructive patterns, the automatic row limit,
 * named parameters, results-grid state and log query rules. No I/O, and no parser: this entry is
 * what the browser imports, so it must stay free of the WebAssembly Postgres parser. Splitting with
 * the real parser lives in `@stratum/sql/parser` (parser-entry.ts), for the platform.
 */
export { tokenize, isTrivia, significantTokens, type Token, type TokenKind, type LexerOptions, type SqlDialect } from './lexer.js'
export { identifierName } from './identifiers.js'
export { splitStatementsByLexer, isEmptySql, type SqlStatement } from './statements.js'
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
export { RESERVED_KEYWORDS } from './keywords.js'
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
export { errorLocation, errorLocationLines, type ErrorLocation } from './error-location.js'
export * from './table-editor/index.js'
