import { deployEdgeFunctionTool, listEdgeFunctionsTool } from './function-tools.js'
import { getLogsTool } from './log-tools.js'
import { getProjectTool, getProjectUrlTool, getPublishableKeysTool, listProjectsTool } from './project-tools.js'
import { listExtensionsTool, listFunctionsTool, listPoliciesTool, listSchemasTool, listTablesTool, SCHEMA_TOOLS } from './schema-tools.js'
import { applyMigrationTool, executeReadOnlySqlTool, executeSqlTool, listMigrationsTool } from './sql-tools.js'
import type { AiOptInLevel } from '@stratum/contracts'
import type { AnyTool } from './types.js'

const BY_LEVEL: Record<AiOptInLevel, readonly AnyTool[]> = {
  disabled: [],
  schema: SCHEMA_TOOLS,
  schema_and_log: [...SCHEMA_TOOLS, getLogsTool],
  schema_and_log_and_data: [...SCHEMA_TOOLS, getLogsTool, executeReadOnlySqlTool],
}

/**
 * The tools the assistant may call at an opt-in level: disabled none; schema the structure (schemas,
 * tables with columns and keys and RLS status, functions, policies, extensions); schema_and_log plus
 * the project's recent logs; schema_and_log_and_data plus read-only SQL with a row limit. None writes.
 */
export function assistantToolsFor(level: AiOptInLevel): AnyTool[] {
  return [...BY_LEVEL[level]]
}

/** What the MCP endpoint offers: the project's structure, SQL, migrations, logs, keys and URL, functions. */
export const MCP_TOOLS: readonly AnyTool[] = [
  listProjectsTool,
  getProjectTool,
  getProjectUrlTool,
  getPublishableKeysTool,
  listSchemasTool,
  listTablesTool,
  listFunctionsTool,
  listPoliciesTool,
  listExtensionsTool,
  listMigrationsTool,
  applyMigrationTool,
  executeSqlTool,
  getLogsTool,
  listEdgeFunctionsTool,
  deployEdgeFunctionTool,
]
