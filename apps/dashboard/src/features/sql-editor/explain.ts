import { isEmptySql, splitStatementsByLexer } from '@stratum/sql'

/** One node of a Postgres JSON plan (the fields the plan view shows; the rest are kept for details). */
export interface PlanNode {
  'Node Type': string
  'Relation Name'?: string
  Schema?: string
  Alias?: string
  'Function Name'?: string
  'Index Name'?: string
  'Join Type'?: string
  'Startup Cost'?: number
  'Total Cost'?: number
  'Plan Rows'?: number
  'Plan Width'?: number
  'Actual Startup Time'?: number
  'Actual Total Time'?: number
  'Actual Rows'?: number
  'Actual Loops'?: number
  Filter?: string
  'Index Cond'?: string
  'Hash Cond'?: string
  Plans?: PlanNode[]
  [key: string]: unknown
}

export interface ExplainPlan {
  Plan: PlanNode
  'Planning Time'?: number
  'Execution Time'?: number
}

const stripComments = (sql: string) => sql.replace(/--[^\n]*/g, ' ').replace(/\/\*[\s\S]*?\*\//g, ' ')

/** The statements of the text (empty ones dropped). */
function statements(sql: string): string[] {
  return splitStatementsByLexer(sql)
    .map((s) => s.text.trim().replace(/;\s*$/, ''))
    .filter((text) => !isEmptySql(text))
}

/** Why the text cannot be explained, or undefined. ANALYZE runs the query, so it is only offered for one SELECT. */
export function explainProblem(sql: string, analyze: boolean): string | undefined {
  const list = statements(sql)
  if (list.length === 0) return 'Write a query to explain'
  if (list.length > 1) return 'Select a single statement to explain'
  if (analyze && !/^\s*(select|with|values|table)\b/i.test(stripComments(list[0] ?? ''))) return 'EXPLAIN ANALYZE runs the query, so it is only offered for a single SELECT'
  if (analyze && /\b(insert|update|delete|merge)\b/i.test(stripComments(list[0] ?? '')) && /^\s*with\b/i.test(stripComments(list[0] ?? ''))) {
    return 'EXPLAIN ANALYZE runs the query, so it is only offered for a single SELECT'
  }
  return undefined
}

export function explainSql(sql: string, analyze: boolean): string {
  const [statement = ''] = statements(sql)
  return `EXPLAIN (${analyze ? 'ANALYZE, ' : ''}FORMAT JSON) ${statement}`
}

/** The plan out of the EXPLAIN result's single cell (json arrives parsed, or as text). */
export function parsePlan(rows: readonly Record<string, unknown>[]): ExplainPlan | undefined {
  const cell = rows[0] ? Object.values(rows[0])[0] : undefined
  let value: unknown = cell
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value)
    } catch {
      return undefined
    }
  }
  const first = Array.isArray(value) ? value[0] : value
  if (first && typeof first === 'object' && 'Plan' in first) return first as ExplainPlan
  return undefined
}
