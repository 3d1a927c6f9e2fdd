/**
 * Queries one member may have running at once on one project, over the SQL editor's route and the
 * Management API's database/query together. Each project's read-only pool holds 3 sessions
 * (pools.ts) that every member's first try shares: at 2, no single member (a Read-only one
 * running pg_sleep in a loop, say) can hold them all, and the editor's usual one query at a time,
 * plus one more in another tab, still runs.
 */
export const MEMBER_QUERY_CONCURRENCY = 2

/** The answer to the query over the limit (a 429 with this message). */
export const memberLimitMessage = (limit: number) =>
  `You already have ${limit} queries running on this project. Wait for one to finish or cancel it, then run this query.`

/** One running query's hold on its member's share; released exactly once, whatever happens. */
export interface MemberQuerySlot {
  /** Records the database session (backend pid) the query runs in: its member may cancel it. */
  session(pid: number): void
  release(): void
}

/**
 * Counts each member's running queries per project, and remembers which member started the
 * query in each session: all members' read-only tries run as the same database role, so the
 * database cannot say whose a session is, and a Read-only member may stop only its own.
 * In memory: the platform is one process, and a restart ends every query anyway.
 */
export class MemberQueryLimiter {
  private readonly running = new Map<string, number>()
  private readonly owners = new Map<string, string>()

  constructor(readonly limit = MEMBER_QUERY_CONCURRENCY) {}

  /** A slot for a new query, or null when the member already runs `limit` queries on the project. */
  tryAcquire(userId: string, ref: string): MemberQuerySlot | null {
    const key = `${ref}\u0000${userId}`
    const count = this.running.get(key) ?? 0
    if (count >= this.limit) return null
    this.running.set(key, count + 1)
    let sessionKey: string | null = null
    let released = false
    return {
      session: (pid) => {
        if (released) return
        sessionKey = `${ref}\u0000${pid}`
        this.owners.set(sessionKey, userId)
      },
      release: () => {
        if (released) return
        released = true
        if (sessionKey !== null && this.owners.get(sessionKey) === userId) this.owners.delete(sessionKey)
        const left = (this.running.get(key) ?? 1) - 1
        if (left > 0) this.running.set(key, left)
        else this.running.delete(key)
      },
    }
  }

  /** Whether the query running in session `pid` of the project was started by this member. */
  startedBy(userId: string, ref: string, pid: number): boolean {
    return this.owners.get(`${ref}\u0000${pid}`) === userId
  }
}
