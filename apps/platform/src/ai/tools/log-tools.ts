import { z } from 'zod'
import type { GatewayService } from '../../gateway/request-log-entry.js'
import { defineTool } from './types.js'

/**
 * get_logs reads what this installation really records: the gateway's log of requests through the
 * project's URL (gateway/request-log.ts, migration 011). There is no store of the services' own log
 * lines yet (issue 16), so those are answered as not available; nothing is ever made up.
 */
export const LOG_WINDOW_HOURS = 24
export const LOG_MAX_ENTRIES = 100

/** The Supabase MCP server's service names, and the gateway service each reads (null: no such log here). */
const SERVICES: Record<string, GatewayService | 'all' | null> = {
  api: 'all',
  rest: 'rest',
  graphql: 'graphql',
  auth: 'auth',
  storage: 'storage',
  'edge-function': 'functions',
  realtime: 'realtime',
  postgres: null,
}
const Service = z.enum(Object.keys(SERVICES) as [string, ...string[]])

const NOT_COLLECTED =
  'The services\' own logs (Postgres, the auth server, function console output) are not collected in this installation yet: only the gateway\'s request log is available.'

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
    `Reads the project's recent logs: the requests made through its API URL (REST, GraphQL, auth, storage, edge functions, realtime) in the last ${LOG_WINDOW_HOURS} hours, newest first, at most ${LOG_MAX_ENTRIES}: time, service, method, path, status, duration, role. Postgres logs are not collected yet.`,
  inputSchema: z.object({ service: Service.default('api').describe('api: every request; or one service: rest, graphql, auth, storage, edge-function, realtime; postgres is not available') }),
  scope: 'project',
  writes: 'never',
  permission: 'projects.read',
  run: async (context, input) => {
    const service = SERVICES[input.service]
    if (service === null || service === undefined) return { note: `Logs of ${input.service} are not available. ${NOT_COLLECTED}` }
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
