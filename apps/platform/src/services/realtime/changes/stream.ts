import { LogicalReplicationService, PgoutputPlugin, type Pgoutput } from 'pg-logical-replication'
import type pg from 'pg'
import type { Logger } from 'pino'
import { PROJECT_CONNECT_TIMEOUT_MS, withProjectSession } from '../../../control/project-connections.js'
import { CHANGES_PUBLICATION, MESSAGES_PUBLICATION } from '../schema.js'
import type { ChangeEvent } from './filters.js'
import { dropOrphanSlots } from './slots.js'

/** A committed row change of a published table, its values as Postgres's text. */
export interface RowChange {
  relationOid: number
  schema: string
  table: string
  event: ChangeEvent
  /** The new row (INSERT, UPDATE). Unchanged TOAST values are missing unless the old row carried them. */
  record: Record<string, string | null> | null
  /** The old row: all columns under REPLICA IDENTITY FULL, else its key (UPDATE of a key, DELETE). */
  old: Record<string, string | null> | null
  /** Column types by name, from the relation message. */
  typeOids: Map<string, number>
}

export interface CommittedTransaction {
  /** The transaction's id (32 bits, as pgoutput's BEGIN carries it). */
  xid: number
  /** ISO 8601, UTC, milliseconds: the format Supabase's payloads carry. */
  commitTimestamp: string
  changes: RowChange[]
}

/** Where the stream logs in: the project's instance as the replication role. */
export interface ReplicationLogin {
  port: number
  user: string
  password: string
}

/**
 * pgoutput over the owner's slot. A resumed start (the stream was lost: the instance restarted, the connection broke)
 * goes on from where the slot was acknowledged, so a change committed while the stream was away is still delivered.
 * A fresh start makes the slot anew and drops the realtime slots nobody owns (slots.ts: a crashed platform's, one copied
 * from a branch's parent): their positions are from before anyone listening now. Each owner has its own name, so an
 * owner being replaced never drops the slot its successor just made. The owner drops its slot when nobody listens
 * (project-changes.ts); the instance's max_slot_wal_keep_size bounds what one left behind can hold.
 * Values stay Postgres's text: values.ts turns them into JSON by their type, as Supabase does.
 */
class ProjectSlotPgoutput extends PgoutputPlugin {
  constructor(
    options: ConstructorParameters<typeof PgoutputPlugin>[0],
    private readonly fresh: boolean,
    private readonly ref: string,
  ) {
    super(options)
  }

  override async start(client: pg.Client, slotName: string): Promise<unknown> {
    if (this.fresh) await dropOrphanSlots(client, this.ref)
    const { rows } = await client.query(`SELECT 1 FROM pg_catalog.pg_replication_slots WHERE slot_name = '${slotName}'`)
    let exists = rows.length > 0
    if (exists && this.fresh) {
      await client.query(`DROP_REPLICATION_SLOT ${slotName} WAIT`)
      exists = false
    }
    if (!exists) await client.query(`CREATE_REPLICATION_SLOT ${slotName} LOGICAL pgoutput (SNAPSHOT 'nothing')`)
    return super.start(client, slotName, '0/00000000')
  }

  override parse(buffer: Buffer): Pgoutput.Message {
    const message = super.parse(buffer) as Pgoutput.Message
    // The parser keeps this relation object for the rows that follow: their values stay text.
    if (message.tag === 'relation') for (const column of message.columns) column.parser = (raw: unknown) => raw
    return message
  }
}

/**
 * One project's change stream: the supabase_realtime publication's row changes and realtime.messages' inserts,
 * handed over one committed transaction at a time, in commit order. The owner (changes/project-changes.ts) starts it
 * while someone listens and stops it when nobody does.
 */
export class ChangeStream {
  private readonly service: LogicalReplicationService
  private transaction: CommittedTransaction | null = null
  private stopped = false

  constructor(
    readonly login: ReplicationLogin,
    /** The owner's slot (SLOT_PREFIX_…), kept across its streams so a lost one resumes. */
    private readonly slotName: string,
    private readonly ref: string,
    private readonly onTransaction: (transaction: CommittedTransaction) => void,
    private readonly log: Logger,
  ) {
    this.service = new LogicalReplicationService(
      {
        host: '127.0.0.1',
        port: login.port,
        user: login.user,
        password: login.password,
        database: 'postgres',
        application_name: 'stratum-realtime',
        connectionTimeoutMillis: PROJECT_CONNECT_TIMEOUT_MS,
      },
      { acknowledge: { auto: true, timeoutSeconds: 10 } },
    )
    this.service.on('data', (_lsn: string, message: Pgoutput.Message) => this.read(message))
    this.service.on('heartbeat', (lsn: string, _time: number, shouldRespond: boolean) => {
      // The library reports the position it is given plus one. A walsender shutting down (the instance stopping for a
      // restart, pause or upgrade) exits only once the reported flush position EQUALS what it sent (WalSndDone):
      // one past it kept pg_ctl stop waiting until its timeout. So the keepalive's own position is reported.
      const before = lsnBefore(lsn)
      if (shouldRespond && before) void this.service.acknowledge(before).catch(() => {})
    })
  }

  /**
   * Resolves once the server streams (changes committed after that are delivered); `ended` settles when the stream
   * stops for any reason other than stop().
   */
  start(fresh: boolean): { started: Promise<void>; ended: Promise<void> } {
    const plugin = new ProjectSlotPgoutput({ protoVersion: 1, publicationNames: [CHANGES_PUBLICATION, MESSAGES_PUBLICATION] }, fresh, this.ref)
    let resolveStarted!: () => void
    let rejectStarted!: (error: Error) => void
    const started = new Promise<void>((resolve, reject) => {
      resolveStarted = resolve
      rejectStarted = reject
    })
    this.service.once('start', () => resolveStarted())
    const ended = this.service.subscribe(plugin, this.slotName).then(
      () => {
        rejectStarted(new Error('The change stream ended before it started'))
      },
      (error: Error) => {
        rejectStarted(error)
        if (!this.stopped) throw error
      },
    )
    // The error also reaches `ended`; this listener keeps EventEmitter from throwing it.
    this.service.on('error', (error: Error) => this.log.debug({ err: error }, 'realtime: the change stream failed'))
    return { started, ended }
  }

  /** Ends the stream; the owner drops the slot (dropProjectSlot) when nobody listens any more. */
  async stop(): Promise<void> {
    this.stopped = true
    await this.service.destroy().catch(() => {})
  }

  private read(message: Pgoutput.Message): void {
    switch (message.tag) {
      case 'begin':
        this.transaction = { xid: message.xid, commitTimestamp: new Date(Number((message.commitTime as unknown as bigint) / 1000n)).toISOString(), changes: [] }
        return
      case 'insert':
      case 'update':
      case 'delete': {
        const relation = message.relation
        const typeOids = new Map(relation.columns.map((column) => [column.name, column.typeOid]))
        const old = message.tag === 'insert' ? null : (message.old ?? message.key ?? null)
        this.transaction?.changes.push({
          relationOid: relation.relationOid,
          schema: relation.schema,
          table: relation.name,
          event: message.tag === 'insert' ? 'INSERT' : message.tag === 'update' ? 'UPDATE' : 'DELETE',
          record: message.tag === 'delete' ? null : withoutUndefined(message.new),
          old: old ? withoutUndefined(old) : null,
          typeOids,
        })
        return
      }
      case 'commit': {
        const transaction = this.transaction
        this.transaction = null
        if (transaction?.changes.length) this.onTransaction(transaction)
        return
      }
      default:
        return
    }
  }
}

/** WAIT waits for the ended walsender to let go: a moment on a live instance, never forever. */
const SLOT_DROP_TIMEOUT_MS = 15_000

/** DROP_REPLICATION_SLOT ... WAIT on a replication session of its own: it waits until the ended walsender lets go. */
export async function dropProjectSlot(login: ReplicationLogin, slotName: string): Promise<void> {
  await withProjectSession(
    { port: login.port, user: login.user, password: login.password },
    async (client) => {
      const { rows } = await client.query(`SELECT 1 FROM pg_catalog.pg_replication_slots WHERE slot_name = '${slotName}'`)
      if (rows.length) await client.query(`DROP_REPLICATION_SLOT ${slotName} WAIT`)
    },
    { replication: true, applicationName: 'stratum-realtime', queryTimeoutMs: SLOT_DROP_TIMEOUT_MS },
  )
}

/** The position one byte before `lsn` ('X/Y' in hex), or null for 0/0. */
export function lsnBefore(lsn: string): string | null {
  const [high, low] = lsn.split('/').map((part) => BigInt(`0x${part}`)) as [bigint, bigint]
  const position = (high << 32n) + low
  if (position === 0n) return null
  const before = position - 1n
  return `${(before >> 32n).toString(16).toUpperCase()}/${(before & 0xffffffffn).toString(16).toUpperCase()}`
}

/** Unchanged TOAST values come as undefined: such a column is left out of the row, as Supabase leaves it. */
function withoutUndefined(row: Record<string, unknown>): Record<string, string | null> {
  const result: Record<string, string | null> = {}
  for (const [name, value] of Object.entries(row)) if (value !== undefined) result[name] = value as string | null
  return result
}
