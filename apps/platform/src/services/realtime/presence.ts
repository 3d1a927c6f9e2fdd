import { randomBytes } from 'node:crypto'

/** One tracked presence: a channel's key and what it tracked, under a reference unique to this meta. */
interface Tracked {
  key: string
  ref: string
  meta: Record<string, unknown>
}

export type PresenceMetas = Record<string, { metas: Array<Record<string, unknown>> }>

export interface PresenceDiff {
  joins: PresenceMetas
  leaves: PresenceMetas
}

const newRef = () => randomBytes(9).toString('base64url')

const asMetas = (entries: Array<{ key: string; meta: Record<string, unknown> }>): PresenceMetas => {
  const result: PresenceMetas = {}
  for (const { key, meta } of entries) (result[key] ??= { metas: [] }).metas.push(meta)
  return result
}

/**
 * The presences of one topic, as Phoenix Presence keeps them: each channel tracks at most one meta under its key
 * (several channels may share a key); a change is a diff of joins and leaves that every channel of the topic hears.
 */
export class TopicPresence<Member> {
  private tracked = new Map<Member, Tracked>()

  get size(): number {
    return this.tracked.size
  }

  /** The whole state, as presence_state carries it. */
  state(): PresenceMetas {
    return asMetas([...this.tracked.values()].map((entry) => ({ key: entry.key, meta: { ...entry.meta, phx_ref: entry.ref } })))
  }

  /** Tracks or updates a member's meta; null when it is the same as tracked already (nothing to tell). */
  track(member: Member, key: string, payload: Record<string, unknown>): PresenceDiff | null {
    const previous = this.tracked.get(member)
    if (previous && previous.key === key && JSON.stringify(previous.meta) === JSON.stringify(payload)) return null
    const entry: Tracked = { key, ref: newRef(), meta: payload }
    this.tracked.set(member, entry)
    const joined = { ...payload, phx_ref: entry.ref, ...(previous ? { phx_ref_prev: previous.ref } : {}) }
    return {
      joins: asMetas([{ key, meta: joined }]),
      leaves: previous ? asMetas([{ key: previous.key, meta: { ...previous.meta, phx_ref: previous.ref } }]) : {},
    }
  }

  /** Stops tracking a member (untrack, leave, a closed socket); null when it tracked nothing. */
  untrack(member: Member): PresenceDiff | null {
    const previous = this.tracked.get(member)
    if (!previous) return null
    this.tracked.delete(member)
    return { joins: {}, leaves: asMetas([{ key: previous.key, meta: { ...previous.meta, phx_ref: previous.ref } }]) }
  }
}
