import { request } from '../request'
import { getOngoingQueries } from './useOngoingQueries'

export const cancelQuery = ({ ref, pid }: { ref: string; pid: number }) =>
  request('POST /platform/pg-meta/{ref}/query/cancel', { params: { ref }, body: { pid } })

/**
 * Cancels the editor's running query: finds it among the ongoing ones by its text (the server runs
 * statement by statement and may append a row limit, so either may contain the other), then asks the server to cancel that backend.
 */
export async function cancelRunningQuery({ ref, query }: { ref: string; query: string }): Promise<boolean> {
  const wanted = query.trim()
  const ongoing = await getOngoingQueries(ref)
  const match = ongoing.find((row) => {
    const text = row.query.trim().replace(/;$/, '')
    return row.state !== 'idle' && text.length > 0 && (wanted.includes(text) || text.startsWith(wanted.replace(/;$/, '')))
  })
  if (!match) return false
  const { cancelled } = await cancelQuery({ ref, pid: match.pid })
  return cancelled
}
