/** Keyword sets shared by the rules. All lower case, as Postgres folds unquoted words. */

/**
 * Postgres' reserved keywords (kwlist.h, RESERVED_KEYWORD). None of them can name a function,
 * so a reserved word before `(` is syntax (`in (`, `and (`, `array(`), never a call.
 */
export const RESERVED_KEYWORDS: ReadonlySet<string> = new Set([
  'all', 'analyse', 'analyze', 'and', 'any', 'array', 'as', 'asc', 'asymmetric', 'both', 'case',
  'cast', 'check', 'collate', 'column', 'constraint', 'create', 'current_catalog', 'current_date',
  'current_role', 'current_time', 'current_timestamp', 'current_user', 'default', 'deferrable',
  'desc', 'distinct', 'do', 'else', 'end', 'except', 'false', 'fetch', 'for', 'foreign', 'from',
  'grant', 'group', 'having', 'in', 'initially', 'intersect', 'into', 'lateral', 'leading', 'limit',
  'localtime', 'localtimestamp', 'not', 'null', 'offset', 'on', 'only', 'or', 'order', 'placing',
  'primary', 'references', 'returning', 'select', 'session_user', 'some', 'symmetric', 'system_user',
  'table', 'then', 'to', 'trailing', 'true', 'union', 'unique', 'user', 'using', 'variadic', 'when',
  'where', 'window', 'with',
])

/**
 * Non-reserved words that, before `(`, open a clause or a constructor rather than call a
 * function: `exists (select ...)`, `row(1, 2)`, `over (...)`, `filter (where ...)`,
 * `grouping sets (...)`, `at time zone (...)`, `join (...)`.
 */
export const SYNTAX_WORDS_BEFORE_PARENTHESIS: ReadonlySet<string> = new Set([
  'exists', 'row', 'values', 'over', 'filter', 'within', 'sets', 'cube', 'rollup', 'by', 'zone',
  'between', 'like', 'ilike', 'similar', 'overlaps', 'is', 'isnull', 'notnull', 'join', 'cross',
  'inner', 'outer', 'natural', 'full', 'first', 'next', 'escape', 'rows', 'ordinality',
  // `a operator(pg_catalog.+) b` names an operator: no call (the run gate counts only functions).
  'operator',
])

/**
 * SQL value functions written without parentheses (the grammar's SQLValueFunction). They are
 * function calls all the same.
 */
export const BARE_FUNCTION_WORDS: ReadonlySet<string> = new Set([
  'current_date', 'current_time', 'current_timestamp', 'localtime', 'localtimestamp', 'current_role',
  'current_user', 'session_user', 'user', 'current_catalog', 'current_schema', 'system_user',
])
