import type { OrgRole, Permission } from '@stratum/contracts'
import type { z } from 'zod'
import type { UserRow } from '../../auth/users.js'
import type { ProjectRow } from '../../control/project-store.js'
import type { PlatformContext } from '../../platform-context.js'
import type { ToolServices } from './services.js'

/**
 * Who calls a tool, on what, and how. Built once per request by each door:
 *
 * From a Fastify request (the assistant route, signed in by cookie or token):
 *
 *   const context: ToolContext = {
 *     platform: ctx,
 *     caller: identityOf(request).user,
 *     projectRef: ref,                        // the project the chat is about: tools then take no project argument
 *     readOnly: true,                         // the assistant never writes; MCP: ?read_only=true
 *     services: toolServices(app, ctx),       // shared pools, closed with the app
 *     origin: { host: request.headers.host, protocol: request.protocol },
 *   }
 *
 * Every tool checks the caller's role on the project itself (the same checks as the HTTP routes),
 * so a context grants nothing by being built.
 */
export interface ToolContext {
  platform: PlatformContext
  /** The account the tools act for: each call checks this user's role on the project. */
  caller: UserRow
  /** The project the tools are scoped to; null: project tools take a `project_id` argument (MCP without ?project_ref). */
  projectRef: string | null
  /** Write tools are refused, and SQL runs on the read-only connection, whatever the caller's role. */
  readOnly: boolean
  services: ToolServices
  /** Where the caller reached the platform: project URLs use it when no public URL is configured. */
  origin?: { host?: string; protocol?: string }
}

/** A project tool's context: the project the call is about and the caller's role in its organization. */
export interface ProjectToolContext extends ToolContext {
  project: ProjectRow
  role: OrgRole
}

/**
 * What a tool gives back. `data` is what came from the project or from members (rows, names, log lines,
 * definitions): it reaches the model only inside untrusted-data boundaries (untrusted.ts). `note` is the
 * platform's own text (limits hit, what is not available), shown outside them.
 */
export interface ToolReply {
  data?: unknown
  note?: string
}

/**
 * never: reads only. always: changes the project; refused in read-only mode and to roles without the
 * permission. when_allowed: runs as a write only for a role with sql.write outside read-only mode, else
 * as a read (execute_sql: the read-only connection).
 */
export type ToolWrites = 'never' | 'always' | 'when_allowed'

interface ToolBase<S extends z.ZodObject> {
  name: string
  description: string
  inputSchema: S
  writes: ToolWrites
  /** The permission the matching HTTP route asks for (access.ts); checked before `run`. */
  permission: Permission
}

export interface ProjectTool<S extends z.ZodObject = z.ZodObject> extends ToolBase<S> {
  scope: 'project'
  run(context: ProjectToolContext, input: z.output<S>): Promise<ToolReply>
}

export interface AccountTool<S extends z.ZodObject = z.ZodObject> extends ToolBase<S> {
  scope: 'account'
  run(context: ToolContext, input: z.output<S>): Promise<ToolReply>
}

export type Tool<S extends z.ZodObject = z.ZodObject> = ProjectTool<S> | AccountTool<S>
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a list of tools with different input schemas
export type AnyTool = Tool<any>

/** Keeps each tool's input type tied to its schema while lists hold them as AnyTool. */
export const defineTool = <S extends z.ZodObject>(tool: Tool<S>): Tool<S> => tool

/**
 * A refusal or failure meant for the caller (the model): `message` is the platform's text; `detail`
 * came from the project (a Postgres error can carry any text a function raised) and is wrapped as untrusted.
 */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message)
  }
}
