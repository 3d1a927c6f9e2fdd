export { TableEditorInputError, qualifiedName, cellSql, checkedType, userTypeSql, checkedExpression, type RelationName, type CellInput } from './names.js'
export {
  TABLE_EDITOR_PAGE_SIZE,
  ROW_COUNT_CAP,
  parseInList,
  filterCondition,
  whereClause,
  usesKeyset,
  buildPageQuery,
  buildCappedCount,
  type PageCursor,
  type PageRequest,
  type PageQuery,
} from './select.js'
export { buildInsertRow, buildUpdateRow, buildDeleteRows, type RowKey } from './rows.js'
export {
  FOREIGN_KEY_ACTIONS,
  DEFAULT_EXPRESSIONS,
  POLICY_COMMANDS,
  columnDefinition,
  buildCreateTable,
  buildRenameTable,
  buildDropTable,
  buildAddColumn,
  buildDropColumn,
  buildAlterColumn,
  buildSetRowLevelSecurity,
  buildSetRealtime,
  REALTIME_PUBLICATION,
  buildCreatePolicy,
  buildDropPolicy,
  type ForeignKeyActionName,
  type ColumnDefault,
  type ForeignKeySpec,
  type ColumnSpec,
  type ColumnChange,
  type CreateTableSpec,
  type PolicyCommand,
  type PolicySpec,
} from './ddl.js'
export { SCHEMAS_QUERY, entitiesQuery, relationQuery, EDITOR_CHOICES_QUERY, REALTIME_TABLES_QUERY, ROLES_HIDDEN_FROM_POLICIES } from './catalog.js'
export { parseArrayLiteral, formatArrayLiteral } from './arrays.js'
export {
  CSV_DELIMITERS,
  buildCopyFrom,
  checkedImportName,
  parseCsvSample,
  columnNamesFromHeader,
  type CsvDelimiter,
  type CopyFromSpec,
  type CsvPreview,
} from './csv-import.js'
