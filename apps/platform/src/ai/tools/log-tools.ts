import { z } from 'zod'
import type { GatewayService } from '../../gateway/request-log-entry.js'
import { defineTool, type ProjectToolContext, type ToolReply } from './types.js'

/**
 * get_logs reads what this installation really records: the gateway's log of requests through the
 * project's URL (gateway/request-log.ts, migration 011) for the API services, and the log store's
 * postgres_logs (observability/logs/, the instance's own jsonlog lines) for postgres. The auth server's
 * and functions' own lines are not collected: those are answered as not available, never made up.
 */
export const LOG_WINDOW_HOURS = 24
export const LOG_MAX_ENTRIES = 100

/** The Supabase MCP server's service names, and the gateway service each reads (null: no such log here). */
const SERVICES: Record<string, GatewayService | 'all' | 'postgres' | null> = {
  api: 'all',
  rest: 'rest',
  graphql: 'graphql',
  auth: 'auth',
  storage: 'storage',
  'edge-function': 'functions',
  realtime: 'realtime',
  postgres: 'postgres',
}
const Service = z.enum(Object.keys(SERVICES) as [string, ...string[]])

const NOT_COLLECTED =
  'The auth server\'s and the functions\' own log lines are not collected in this installation: the gateway\'s request log and the Postgres log are.'

interface LogEntry {
  timestamp: Date
  service: string
  method: string
  path: string
  status: number
  duration_ms: number
  role: string | null
  user_agent: string | null
}

export const getLogsTool = defineTool({
  name: 'get_logs',
  description:
    `Reads the project's recent logs: the requests made through its API URL (REST, GraphQL, auth, storage, edge functions, realtime) in the last ${LOG_WINDOW_HOURS} hours, newest first, at most ${LOG_MAX_ENTRIES}: time, service, method, path, status, duration, role; or, for postgres, the database server's own log lines (severity, message).`,
  inputSchema: z.object({ service: Service.default('api').describe('api: every request; one service: rest, graphql, auth, storage, edge-function, realtime; or postgres: the database log') }),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context, input) => {
    const service = SERVICES[input.service]
    if (service === null || service === undefined) return { note: `Logs of ${input.service} are not available. ${NOT_COLLECTED}` }
    if (service === 'postgres') return postgresLog(context)
    // Entries wait in memory for up to 250 ms before they are written: the newest ones count too.
    await context.platform.requestLog.flush()
    const { rows } = await context.platform.db.query<LogEntry>(
      `SELECT timestamp, service, method, path, status, duration_ms, role, user_agent FROM api_request_log
       WHERE project_ref = $1 AND timestamp >= now() - make_interval(hours => $2) AND ($3::text IS NULL OR service = $3)
       ORDER BY timestamp DESC, id DESC LIMIT $4`,
      [context.project.ref, LOG_WINDOW_HOURS, service === 'all' ? null : service, LOG_MAX_ENTRIES],
    )
    const what = service === 'all' ? 'requests' : `${input.service} requests`
    const note = rows.length
      ? `The project's ${rows.length === LOG_MAX_ENTRIES ? `${LOG_MAX_ENTRIES} newest ` : ''}${what} of the last ${LOG_WINDOW_HOURS} hours, from the gateway's request log. ${NOT_COLLECTED}`
      : `No ${what} reached the project's URL in the last ${LOG_WINDOW_HOURS} hours. ${NOT_COLLECTED}`
    return { note, data: rows.map((row) => ({ ...row, timestamp: row.timestamp.toISOString() })) }
  },
})

interface PostgresLogEntry {
  timestamp: Date
  event_message: string
  severity: string | null
}

/** The database server's own lines from the log store (collected every few seconds from its jsonlog files). */
async function postgresLog(context: ProjectToolContext): Promise<ToolReply> {
  await context.platform.logCollector?.collect()
  const { rows } = await context.platform.db.query<PostgresLogEntry>(
    `SELECT timestamp, event_message, metadata #>> '{parsed,error_severity}' AS severity FROM log_events
     WHERE project_ref = $1 AND source = 'postgres_logs' AND timestamp >= now() - make_interval(hours => $2)
     ORDER BY timestamp DESC LIMIT $3`,
    [context.project.ref, LOG_WINDOW_HOURS, LOG_MAX_ENTRIES],
  )
  const note = rows.length
    ? `The database's ${rows.length === LOG_MAX_ENTRIES ? `${LOG_MAX_ENTRIES} newest ` : ''}log lines of the last ${LOG_WINDOW_HOURS} hours.`
    : `The database logged nothing in the last ${LOG_WINDOW_HOURS} hours.`
  return { note, data: rows.map((row) => ({ ...row, timestamp: row.timestamp.toISOString() })) }
}
