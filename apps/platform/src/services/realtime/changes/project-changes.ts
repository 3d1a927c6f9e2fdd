import type pg from 'pg'
import type { Logger } from 'pino'
import type { RealtimeEvent } from '../event-log.js'
import { encodeText, type UserBroadcast, type Vsn } from '../protocol.js'
import { CHANGES_PUBLICATION, pruneMessages } from '../schema.js'
import { bindingCovers, passesFilters, valueKind, type ChangeSubscription } from './filters.js'
import { ChangeStream, dropProjectSlot, type CommittedTransaction, type ReplicationLogin, type RowChange } from './stream.js'
import { claimSlot, disownSlot, SLOT_PREFIX } from './slots.js'
import { checkVisibility, readRelationInfo, readRowSecurity, type ClaimsGroup, type RelationInfo } from './visibility.js'
import { jsonValue } from './values.js'

/** A channel with postgres_changes bindings, as the delivery sees it. */
export interface ChangeListener {
  subscriptions: ChangeSubscription[]
  /** `realtime:<name>`, as frames carry it. */
  readonly topic: string
  readonly socket: {
    readonly vsn: Vsn
    /** A Buffer goes as a binary frame unless `text`. */
    send(frame: string | Buffer, text?: boolean): void
    /** Holds the socket's writes until release(): the frames sent meanwhile leave together. */
    hold(): void
    release(): void
  }
  claimsGroup(): ClaimsGroup
}

interface ProjectChangesOptions {
  ref: string
  log: Logger
  pool: () => pg.Pool
  replicationLogin: () => Promise<ReplicationLogin>
  listeners: () => Iterable<ChangeListener>
  /** A message SQL sent (realtime.send), for the topic's channels. */
  broadcast: (topicKey: string, message: UserBroadcast) => void
  /** The project's realtime_logs. */
  record: (event: RealtimeEvent) => void
}

let owners = 0

/** Nobody listening for this long: the stream stops, and the slot goes with it. */
const IDLE_STOP_MS = 10_000
const RETRY_MS = [1000, 2000, 5000, 10_000]
/**
 * A delivery's reads (the relation's catalog row, the visibility check) can fail for a moment: a new connection to a
 * busy instance that times out, a statement cancelled by its timeout. The batch is tried again after each of these
 * waits before its changes are given up (and logged as an error); later transactions wait, so order holds.
 */
const DELIVERY_RETRY_MS = [250, 1000, 3000, 8000]
/** Waits between the first tries of a slot drop that failed (an instance restarting), then the steady wait, and when to give up. */
const SLOT_DROP_RETRY_MS = [1000, 2000, 5000, 10_000, 20_000]
const SLOT_DROP_RETRY_LATER_MS = 30_000
const SLOT_DROP_GIVE_UP_MS = 10 * 60_000

/** What a change matched of one listener's bindings: their ids, and the columns they select (null: all). */
interface Matched {
  ids: number[]
  select: Set<string> | null
  /** What of the payload and frame these decide, as JSON (listeners alike share a frame). */
  key: string
}

/** The ids of the bindings a change matched, and the columns of their select (one without select wants them all). */
function matchedOf(subscriptions: ChangeSubscription[]): Matched {
  const ids = [...new Set(subscriptions.map((subscription) => subscription.id))]
  const select = subscriptions.some((subscription) => subscription.select === null) ? null : new Set(subscriptions.flatMap((subscription) => subscription.select!))
  return { ids, select, key: JSON.stringify([ids, select && [...select]]) }
}

interface Pending {
  change: RowChange
  commitTimestamp: string
  xid: number
}

/**
 * A project's postgres_changes and database broadcasts: the change stream while anyone listens, and the delivery of
 * each committed change to the channels whose bindings and filters it matches and whose role may see it (row-level
 * security and column privileges, checked in the database for all of them at once: changes/visibility.ts).
 * Transactions that arrive while a delivery runs are delivered together next, in commit order.
 */
export class ProjectChanges {
  private stream: ChangeStream | null = null
  private started: Promise<void> | null = null
  private demand = 0
  private idleTimer: NodeJS.Timeout | undefined
  private retryTimer: NodeJS.Timeout | undefined
  private failures = 0
  private queue: CommittedTransaction[] = []
  private draining = false
  private relations = new Map<string, RelationInfo>()
  private stopped = false
  /** The slot has this owner's position: a stream lost since then resumes from it (stream.ts). */
  private resumable = false
  /** Where the slot was made: halt drops it even when its stream was lost meanwhile (a restart while nobody listened). */
  private slotLogin: ReplicationLogin | null = null
  /** Bumped by each start and release: a release's drop retries stop once another start or release came. */
  private generation = 0
  /** The drop of the slot under way, which a start waits for. */
  private dropAttempt: Promise<boolean> = Promise.resolve(true)
  /** The last start, halt or stop: the next runs after it (inTurn). */
  private transitions: Promise<void> = Promise.resolve()
  /** This owner's slot: its own name, so a successor's slot is never the one this owner drops. */
  private readonly slotName = `${SLOT_PREFIX}_${process.pid}_${++owners}`

  constructor(private readonly options: ProjectChangesOptions) {}

  listen(): void {
    this.demand++
    clearTimeout(this.idleTimer)
    void this.ready().catch((error: Error) => this.restartLater(error))
  }

  unlisten(): void {
    this.demand = Math.max(0, this.demand - 1)
    if (this.demand > 0) return
    clearTimeout(this.idleTimer)
    this.idleTimer = setTimeout(() => void this.halt(), IDLE_STOP_MS)
    this.idleTimer.unref()
  }

  /** Resolves when changes committed from now on will be delivered. */
  ready(): Promise<void> {
    if (this.stopped) return Promise.reject(new Error('Realtime is stopping'))
    if (!this.started) {
      const started = this.inTurn(() => this.open())
      this.started = started
      started.catch(() => {
        if (this.started === started) this.started = null
      })
    }
    return this.started
  }

  /**
   * Starts, halts and stops run one after another: a halt or stop that came while a start was under way (a settings
   * change replacing this owner during a join; the last listener's 10 s running out on a slow start) ends the stream
   * that start made, instead of finding no stream and leaving it running, and its slot with it, for good.
   */
  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const run = this.transitions.then(work)
    this.transitions = run.then(
      () => {},
      () => {},
    )
    return run
  }

  private async open(): Promise<void> {
    if (this.stopped) throw new Error('Realtime is stopping')
    // A drop of this owner's slot still being retried (release) stops here: the fresh start below replaces the slot.
    this.generation++
    await this.dropAttempt
    const login = await this.options.replicationLogin()
    await pruneMessages(this.options.pool()).catch((error: Error) => this.options.log.warn({ err: error, ref: this.options.ref }, 'realtime: old messages were not deleted'))
    claimSlot(this.options.ref, this.slotName)
    const stream = new ChangeStream(login, this.slotName, this.options.ref, (transaction) => this.enqueue(transaction), this.options.log)
    this.stream = stream
    const { started, ended } = stream.start(!this.resumable)
    ended.then(
      () => this.lost(stream, null),
      (error: Error) => this.lost(stream, error),
    )
    // The slot exists from here on (or did already): a release drops it even if the start fails below.
    this.slotLogin = login
    await started
    this.resumable = true
    this.failures = 0
    this.options.log.info({ ref: this.options.ref }, 'realtime: the change stream started')
    this.options.record({ level: 'info', event: 'changes_stream', message: 'Postgres changes stream started' })
  }

  /** The stream ended by itself (the instance stopped, restarted, was upgraded): again while someone listens. */
  private lost(stream: ChangeStream, error: Error | null): void {
    if (this.stream !== stream) return
    this.stream = null
    this.started = null
    if (this.stopped || this.demand === 0) return
    this.options.log.warn({ err: error, ref: this.options.ref }, 'realtime: the change stream ended; starting it again')
    this.options.record({ level: 'warning', event: 'changes_stream', message: `Postgres changes stream ended${error ? `: ${error.message}` : ''}; starting it again` })
    this.restartLater(null)
  }

  /**
   * A start again after a wait, while someone listens, and again after each start that fails: the instance can be
   * down for a while (a point-in-time restore, an upgrade), and a listener that stays joined never asks again.
   */
  private restartLater(failure: Error | null): void {
    if (this.stopped || this.demand === 0) return
    if (failure) this.options.log.warn({ err: failure, ref: this.options.ref }, 'realtime: the change stream did not start; trying again')
    const delay = RETRY_MS[Math.min(this.failures++, RETRY_MS.length - 1)]!
    clearTimeout(this.retryTimer)
    this.retryTimer = setTimeout(() => void this.ready().catch((error: Error) => this.restartLater(error)), delay)
    this.retryTimer.unref()
  }

  private halt(): Promise<void> {
    return this.inTurn(async () => {
      if (this.demand > 0 || this.stopped) return
      this.started = null
      this.relations.clear()
      this.release()
    })
  }

  /** The project stopped, went away or the platform is stopping: the stream ends, and the slot with it where it can. */
  async stop(): Promise<void> {
    this.stopped = true
    clearTimeout(this.idleTimer)
    clearTimeout(this.retryTimer)
    await this.inTurn(async () => {
      this.release()
      await this.dropAttempt
    })
  }

  /**
   * Ends the stream, and drops the slot, also when the stream was lost meanwhile (its position is nobody's now). A drop
   * that fails (the instance restarting when the last listener's 10 s ran out) is tried again, after each of
   * SLOT_DROP_RETRY_MS and then every SLOT_DROP_RETRY_LATER_MS for SLOT_DROP_GIVE_UP_MS in all, until it succeeds or
   * this owner starts a stream again: a slot left behind holds WAL back. The first attempt is `dropAttempt`.
   */
  private release(): void {
    const stream = this.stream
    this.stream = null
    const login = this.slotLogin ?? stream?.login ?? null
    this.resumable = false
    this.slotLogin = null
    const generation = ++this.generation
    if (!login) {
      // No start got as far as a login: there is no slot.
      disownSlot(this.slotName)
      this.dropAttempt = stream ? stream.stop().then(() => true) : Promise.resolve(true)
      return
    }
    const giveUpAt = Date.now() + SLOT_DROP_GIVE_UP_MS
    const attempt = (tries: number): Promise<boolean> =>
      dropProjectSlot(login, this.slotName).then(
        () => {
          if (this.generation === generation) disownSlot(this.slotName)
          return true
        },
        (error: Error) => {
          this.options.log.debug({ err: error, ref: this.options.ref, attempt: tries }, 'realtime: the slot was not dropped')
          return false
        },
      )
    this.dropAttempt = (stream ? stream.stop() : Promise.resolve()).then(() => attempt(1))
    void (async () => {
      let current = this.dropAttempt
      for (let tries = 1; !(await current); tries++) {
        if (Date.now() > giveUpAt) {
          // Nobody's now: the next sweep (realtime set up again for the project, a fresh start) drops it.
          disownSlot(this.slotName)
          this.options.log.warn({ ref: this.options.ref, slot: this.slotName }, 'realtime: the slot could not be dropped; the next sweep drops it')
          return
        }
        await new Promise((resolve) => setTimeout(resolve, SLOT_DROP_RETRY_MS[tries - 1] ?? SLOT_DROP_RETRY_LATER_MS).unref())
        if (this.generation !== generation) return
        this.dropAttempt = current = attempt(tries + 1)
      }
    })()
  }

  /**
   * Supabase's join-time check: each binding must name a table of the supabase_realtime publication. The message
   * for the first that does not, or null.
   */
  async checkPublished(subscriptions: ChangeSubscription[]): Promise<string | null> {
    const { rows } = await this.options.pool().query<{ schemaname: string; tablename: string }>(
      'SELECT schemaname, tablename FROM pg_catalog.pg_publication_tables WHERE pubname = $1',
      [CHANGES_PUBLICATION],
    )
    for (const subscription of subscriptions) {
      const matches = rows.some((row) => bindingCovers({ ...subscription, event: null }, 'INSERT', row.schemaname, row.tablename))
      if (!matches) {
        const filters = subscription.filters.map((filter) => `{"${filter.column}", "${filter.op}", ${JSON.stringify(filter.value)}}`).join(', ')
        return (
          'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ' +
          `[event: ${subscription.event ?? '*'}, schema: ${subscription.schema}, table: ${subscription.table}, filters: [${filters}], select: nil]`
        )
      }
    }
    return null
  }

  private enqueue(transaction: CommittedTransaction): void {
    this.queue.push(transaction)
    if (!this.draining) void this.drain()
  }

  private async drain(): Promise<void> {
    this.draining = true
    try {
      while (this.queue.length) {
        const batch = this.queue.splice(0)
        const pending: Pending[] = []
        for (const transaction of batch) {
          for (const change of transaction.changes) {
            if (change.schema === 'realtime' && change.table === 'messages') this.deliverMessage(change)
            else pending.push({ change, commitTimestamp: transaction.commitTimestamp, xid: transaction.xid })
          }
        }
        if (pending.length) await this.deliverWithRetries(pending)
      }
    } finally {
      this.draining = false
    }
  }

  private async deliverWithRetries(pending: Pending[]): Promise<void> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.deliverChanges(pending)
      } catch (error) {
        const wait = DELIVERY_RETRY_MS[attempt]
        if (wait === undefined || this.stopped) {
          this.options.log.error({ err: error, ref: this.options.ref, changes: pending.length }, 'realtime: changes were not delivered')
          this.options.record({ level: 'error', event: 'changes_delivery', errorCode: 'UnableToDeliverChanges', message: `${pending.length} changes were not delivered: ${(error as Error).message}` })
          return
        }
        this.options.log.warn({ err: error, ref: this.options.ref, attempt: attempt + 1 }, 'realtime: a delivery failed; trying again')
        await new Promise((resolve) => setTimeout(resolve, wait))
      }
    }
  }

  /** An insert into realtime.messages (realtime.send): a broadcast to its topic, its id as `meta`. */
  private deliverMessage(change: RowChange): void {
    const row = change.record
    if (change.event !== 'INSERT' || !row?.topic || !row.event) return
    const topicKey = `${row.private === 't' ? 'private' : 'public'}:${row.topic}`
    const binary = row.binary_payload?.startsWith('\\x') ? Buffer.from(row.binary_payload.slice(2), 'hex') : null
    const message: UserBroadcast = binary
      ? { kind: 'user-broadcast', event: row.event, encoding: 'binary', data: binary, meta: { id: row.id } }
      : { kind: 'user-broadcast', event: row.event, encoding: 'json', data: Buffer.from(row.payload ?? '{}'), meta: { id: row.id } }
    this.options.broadcast(topicKey, message)
  }

  private async relationInfo(change: RowChange): Promise<RelationInfo> {
    const signature = `${change.relationOid}:${[...change.typeOids].map(([name, oid]) => `${name}/${oid}`).join(',')}`
    let info = this.relations.get(signature)
    if (!info) {
      info = await readRelationInfo(this.options.pool(), change.relationOid, [...new Set(change.typeOids.values())])
      this.relations.set(signature, info)
    }
    return info
  }

  private async deliverChanges(pending: Pending[]): Promise<void> {
    const listeners = [...this.options.listeners()]
    if (!listeners.length) return
    const started = performance.now()
    // Per relation and kind of check (DELETEs are not checked against policies, as on Supabase): the changes and,
    // per change, the listeners whose bindings and filters it matches with the ids it matched.
    const groups = new Map<string, { info: RelationInfo; items: Array<{ pending: Pending; matches: Map<ChangeListener, Matched> }> }>()
    // Which bindings of which listeners a table's event reaches, read once per table and event of the delivery, not
    // per change: with a change a millisecond and 100 listeners, that reading was a good part of the delivery. A
    // listener whose reached bindings have no filters matches every such change alike (one Matched for all of them).
    const reach = new Map<string, Array<{ listener: ChangeListener; subscriptions: ChangeSubscription[]; unfiltered: Matched | null }>>()
    for (const item of pending) {
      const { change } = item
      const info = await this.relationInfo(change)
      const row = change.event === 'DELETE' ? change.old : change.record
      const kindOf = (column: string) => {
        const oid = change.typeOids.get(column)
        const name = oid === undefined ? undefined : info.typeNames.get(oid)
        return name === undefined ? undefined : valueKind(name)
      }
      const scope = JSON.stringify([change.event, change.schema, change.table])
      let reached = reach.get(scope)
      if (!reached) {
        reached = []
        for (const listener of listeners) {
          const subscriptions = listener.subscriptions.filter((subscription) => bindingCovers(subscription, change.event, change.schema, change.table))
          if (subscriptions.length) reached.push({ listener, subscriptions, unfiltered: subscriptions.every((subscription) => !subscription.filters.length) ? matchedOf(subscriptions) : null })
        }
        reach.set(scope, reached)
      }
      const matches = new Map<ChangeListener, Matched>()
      for (const { listener, subscriptions, unfiltered } of reached) {
        if (unfiltered) {
          matches.set(listener, unfiltered)
          continue
        }
        const matched = subscriptions.filter((subscription) => passesFilters(subscription.filters, row ?? {}, kindOf))
        if (matched.length) matches.set(listener, matchedOf(matched))
      }
      if (!matches.size) continue
      const key = `${change.relationOid}:${change.event === 'DELETE' ? 'delete' : 'rows'}:${JSON.stringify(info.primaryKey)}`
      let group = groups.get(key)
      if (!group) groups.set(key, (group = { info, items: [] }))
      group.items.push({ pending: item, matches })
    }
    // Every read first, every push after: a batch that fails part-way is tried again whole without sending twice.
    const sends: Array<() => void> = []
    const began = performance.now()
    for (const [key, group] of groups) sends.push(await this.groupDelivery(group.info, group.items, key.includes(':rows:')))
    const checked = performance.now()
    // Each socket's frames of this delivery leave in one write, not one write (a system call) per frame: with 100
    // subscribers those writes were most of a delivery's time (the bench's sustained run, issue 28).
    const sockets = new Set(listeners.map((listener) => listener.socket))
    for (const socket of sockets) socket.hold()
    try {
      for (const send of sends) send()
    } finally {
      for (const socket of sockets) socket.release()
    }
    // Where a delivery's time goes (the bench's sustained run reads these at debug level).
    this.options.log.debug(
      { ref: this.options.ref, changes: pending.length, listeners: listeners.length, matchMs: Math.round(began - started), checkMs: Math.round(checked - began), sendMs: Math.round(performance.now() - checked) },
      'realtime: delivered',
    )
  }

  /** Reads what a group's listeners may see; the function it resolves with sends them the changes. */
  private async groupDelivery(info: RelationInfo, items: Array<{ pending: Pending; matches: Map<ChangeListener, Matched> }>, checkRows: boolean): Promise<() => void> {
    if (!info.primaryKey.length) {
      // Supabase's answer for a table without a primary key: the error, and no row; sent as every change is (join_ref null).
      return () => {
        for (const { pending, matches } of items) {
          const { change } = pending
          const data = { schema: change.schema, table: change.table, commit_timestamp: pending.commitTimestamp, type: change.event, columns: [], errors: ['Error 400: Bad Request, no primary key'] }
          for (const [listener, { ids }] of matches) {
            listener.socket.send(encodeText(listener.socket.vsn, { joinRef: null, ref: null, topic: listener.topic, event: 'postgres_changes', payload: { ids, data } }))
          }
        }
      }
    }
    const claimsGroups: ClaimsGroup[] = []
    const groupIndex = new Map<string, number>()
    const indexOf = (listener: ChangeListener) => {
      const group = listener.claimsGroup()
      const key = `${group.role}\n${group.claims}`
      let index = groupIndex.get(key)
      if (index === undefined) {
        groupIndex.set(key, (index = claimsGroups.length))
        claimsGroups.push(group)
      }
      return index
    }
    const listenerGroups = new Map<ChangeListener, number>()
    for (const { matches } of items) for (const listener of matches.keys()) if (!listenerGroups.has(listener)) listenerGroups.set(listener, indexOf(listener))
    const first = items[0]!.pending.change
    const keys = items.map(({ pending: { change } }) => {
      const row = (change.event === 'DELETE' ? change.old : change.record) ?? {}
      return info.primaryKey.map((column) => row[column] ?? null)
    })
    const xids = [...new Set(items.map(({ pending }) => pending.xid))]
    const visibility = await checkVisibility(this.options.pool(), first.relationOid, info.primaryKey, keys, claimsGroups, checkRows, xids)
    // Deletes are cut to their key under row-level security: read whether it is on now, not when the relation was
    // first seen (info is kept while the stream runs; RLS enabled since must not send whole deleted rows).
    if (!checkRows) info = { ...info, rls: await readRowSecurity(this.options.pool(), first.relationOid) }
    // What a payload depends on of a group: the columns it may select. Users of one role (each its own claims group)
    // mostly share them, so their payloads are one.
    const columnsOf = visibility.map((seen) => [...seen.selectable])
    return () => {
      // Per listener, the rest of what its frame depends on: its group's columns, its serializer and topic.
      const shapes = new Map<ChangeListener, string>()
      items.forEach(({ pending, matches }, index) => {
        // Listeners alike (the same selectable columns, bindings and select, on the same topic and serializer: the
        // many subscribers of one table) share one payload and one frame: built and encoded (to UTF-8 too) once,
        // sent to each.
        const frames = new Map<string, Buffer>()
        for (const [listener, matched] of matches) {
          const group = listenerGroups.get(listener)!
          const seen = visibility[group]
          if (!seen?.visible.has(index)) continue
          let shape = shapes.get(listener)
          // JSON arrays, each delimiting itself: no column or topic name can make two keys alike.
          if (shape === undefined) shapes.set(listener, (shape = JSON.stringify([columnsOf[group], listener.socket.vsn, listener.topic])))
          const key = shape + matched.key
          let frame = frames.get(key)
          if (frame === undefined) {
            const { ids, select } = matched
            const columns = select ? new Set([...seen.selectable].filter((name) => select.has(name))) : seen.selectable
            const payload = { ids, data: payloadFor(pending, info, columns) }
            frame = Buffer.from(encodeText(listener.socket.vsn, { joinRef: null, ref: null, topic: listener.topic, event: 'postgres_changes', payload }))
            frames.set(key, frame)
          }
          listener.socket.send(frame, true)
        }
      })
    }
  }
}

/** The change as Supabase sends it (§4.1): the columns the role may select, record and old_record by event. */
function payloadFor({ change, commitTimestamp }: Pending, info: RelationInfo, selectable: Set<string>): Record<string, unknown> {
  const typeName = (column: string) => info.typeNames.get(change.typeOids.get(column) ?? 0) ?? 'text'
  const columns = [...change.typeOids.keys()].filter((name) => selectable.has(name)).map((name) => ({ name, type: typeName(name) }))
  const pick = (row: Record<string, string | null>, names: Iterable<string>) => {
    const result: Record<string, unknown> = {}
    for (const name of names) if (selectable.has(name) && name in row) result[name] = jsonValue(typeName(name), row[name])
    return result
  }
  const data: Record<string, unknown> = { schema: change.schema, table: change.table, commit_timestamp: commitTimestamp, type: change.event, columns }
  if (change.record) data.record = pick(change.record, Object.keys(change.record))
  if (change.event === 'UPDATE') data.old_record = change.old ? pick(change.old, Object.keys(change.old)) : pick(change.record ?? {}, info.primaryKey)
  if (change.event === 'DELETE') {
    // With row-level security the old row is cut to its key: a delete is not checked against policies.
    const old = change.old ?? {}
    data.old_record = pick(old, info.rls ? info.primaryKey : Object.keys(old))
  }
  data.errors = null
  return data
}
