import { ProjectRef } from '@stratum/contracts'
import pg from 'pg'
import { ZodError, z } from 'zod'
import { projectAccessOf } from '../../auth/project-access.js'
import { DomainError, describeZodError } from '../../errors.js'
import { wrapUntrusted } from './untrusted.js'
import { ToolError, type AnyTool, type ToolContext, type ToolReply } from './types.js'
import { isDatabaseUnreachable, UNREACHABLE_MESSAGE } from '../../sql-runner/unreachable.js'

/** What a call gives the model: `text` is all it sees (project data inside untrusted boundaries); `data` is for code. */
export interface ToolOutcome {
  ok: boolean
  text: string
  data?: unknown
}

const ProjectIdInput = ProjectRef.describe('The project ref (20 lowercase letters); list_projects gives them')

/**
 * The tool's input as this context asks for it: project tools take `project_id` unless the context is
 * scoped to a project. Scoped, unknown keys are kept (not stripped) so that a call naming another
 * project is refused instead of quietly running on the scoped one.
 */
export function inputSchemaFor(tool: AnyTool, context: Pick<ToolContext, 'projectRef'>): z.ZodObject {
  if (tool.scope !== 'project') return tool.inputSchema
  return context.projectRef === null ? tool.inputSchema.extend({ project_id: ProjectIdInput }) : tool.inputSchema.loose()
}

function refusedWrite(tool: AnyTool): ToolError {
  return new ToolError(`${tool.name} changes the project, and this connection is read-only: no tool may change anything. Connect without read_only=true to make changes.`)
}

/** The project a call is about: the context's scope, else its project_id. Asking for another project than the scope's is refused. */
function projectOf(tool: AnyTool, context: ToolContext, input: Record<string, unknown>): string {
  if (context.projectRef === null) return input.project_id as string
  const asked = input.project_id
  if (asked !== undefined && asked !== context.projectRef) {
    throw new ToolError(`${tool.name} is refused: this connection is scoped to project ${context.projectRef}, and other projects cannot be reached from it`)
  }
  return context.projectRef
}

/**
 * Runs one tool call for a caller, whatever the door: validates the input, refuses writes in read-only
 * mode, checks the caller's role on the project exactly as the HTTP route does (projectAccessOf), then
 * runs the tool. Refusals and failures it can explain come back as `ok: false` with a message; anything
 * else (a bug) is thrown for the door to log and answer as an internal error.
 */
export async function runTool(tool: AnyTool, context: ToolContext, raw: unknown): Promise<ToolOutcome> {
  try {
    const parsed = inputSchemaFor(tool, context).safeParse(raw ?? {})
    if (!parsed.success) throw new ToolError(`Invalid input for ${tool.name}: ${describeZodError(parsed.error)}`)
    const input = parsed.data as Record<string, unknown>
    if (tool.writes === 'always' && context.readOnly) throw refusedWrite(tool)
    let reply: ToolReply
    if (tool.scope === 'project') {
      const ref = projectOf(tool, context, input)
      const { project, role } = await projectAccessOf(context.platform.db, context.caller.id, ref, tool.permission, context.platform.accessCache)
      const { project_id: _ignored, ...own } = input
      reply = await tool.run({ ...context, project, role }, own)
    } else {
      reply = await tool.run(context, input)
    }
    return success(tool, reply)
  } catch (error) {
    return failure(tool, error)
  }
}

function success(tool: AnyTool, reply: ToolReply): ToolOutcome {
  const parts: string[] = []
  if (reply.note) parts.push(reply.note)
  if (reply.data !== undefined) parts.push(wrapUntrusted(`the result of ${tool.name}`, JSON.stringify(reply.data)))
  return { ok: true, text: parts.join('\n\n') || `${tool.name} done`, data: reply.data }
}

function failure(tool: AnyTool, error: unknown): ToolOutcome {
  if (error instanceof ToolError) {
    return { ok: false, text: error.detail === undefined ? error.message : `${error.message}\n\n${wrapUntrusted('the error the database gave', error.detail)}` }
  }
  if (error instanceof DomainError) return { ok: false, text: error.message }
  if (error instanceof ZodError) return { ok: false, text: `Invalid input for ${tool.name}: ${describeZodError(error)}` }
  if (isDatabaseUnreachable(error)) return { ok: false, text: UNREACHABLE_MESSAGE }
  if (error instanceof pg.DatabaseError) return { ok: false, text: `${tool.name} failed in the database.\n\n${wrapUntrusted('the error the database gave', error.message)}` }
  throw error
}
