import { runQuery, type RunQueryOutcome, type RunQueryVariables } from './runQuery'

/**
 * Queries the dashboard runs on its own (the table editor's reads and writes, a report's widgets), one at a
 * time per project: the server runs at most two queries per member and project and answers 429 to a third,
 * a report loads all its widgets at once and a table-editor write refreshes several reads. One slot then
 * always stays free for the SQL editor or panel the member may have open beside.
 */
const queues = new Map<string, Promise<unknown>>()

function oneAtATime<T>(ref: string, work: () => Promise<T>): Promise<T> {
  const result = (queues.get(ref) ?? Promise.resolve()).then(work, work)
  queues.set(
    ref,
    result.catch(() => undefined),
  )
  return result
}

/** runQuery, queued behind the project's other background queries. */
export function runBackgroundQuery(variables: RunQueryVariables): Promise<RunQueryOutcome> {
  return oneAtATime(variables.ref, () => runQuery(variables))
}
