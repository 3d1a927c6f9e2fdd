/**
 * Connection failures that mean a project's database is not answering right now (stopped, restarting, refusing
 * connections while it starts or shuts down), as opposed to an error of the SQL itself.
 */
const UNREACHABLE_CODES: ReadonlySet<string> = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03'])

export const UNREACHABLE_MESSAGE = 'The project database is not reachable right now'

export function isDatabaseUnreachable(error: unknown): boolean {
  return UNREACHABLE_CODES.has((error as { code?: unknown } | null)?.code as string)
}
