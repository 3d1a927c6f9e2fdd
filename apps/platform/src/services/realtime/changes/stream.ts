import { LogicalReplicationService, PgoutputPlugin, type Pgoutput } from 'pg-logical-replication'
import type pg from 'pg'
import type { Logger } from 'pino'
import { PROJECT_CONNECT_TIMEOUT_MS } from '../../../control/project-connections.js'
import { CHANGES_PUBLICATION, MESSAGES_PUBLICATION } from '../schema.js'
import type { ChangeEvent } from './filters.js'

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

let slots = 0

/**
 * pgoutput over a temporary slot made on the replication connection itself: the slot lives exactly as long as the
 * stream, so a platform that stops, crashes or loses the instance never leaves one pinning WAL (and the instance's
 * max_slot_wal_keep_size bounds what a slow reader holds). Values stay Postgres's text: values.ts turns them into
 * JSON by their type, as Supabase does.
 */
class TemporarySlotPgoutput extends PgoutputPlugin {
  override async start(client: pg.Client, slotName: string): Promise<unknown> {
    await client.query(`CREATE_REPLICATION_SLOT ${slotName} TEMPORARY LOGICAL pgoutput (SNAPSHOT 'nothing')`)
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
    login: ReplicationLogin,
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
      if (shouldRespond) void this.service.acknowledge(lsn).catch(() => {})
    })
  }

  /**
   * Resolves once the server streams (changes committed after that are delivered); `ended` settles when the stream
   * stops for any reason other than stop().
   */
  start(): { started: Promise<void>; ended: Promise<void> } {
    const slot = `stratum_realtime_${process.pid}_${++slots}`
    const plugin = new TemporarySlotPgoutput({ protoVersion: 1, publicationNames: [CHANGES_PUBLICATION, MESSAGES_PUBLICATION] })
    let resolveStarted!: () => void
    let rejectStarted!: (error: Error) => void
    const started = new Promise<void>((resolve, reject) => {
      resolveStarted = resolve
      rejectStarted = reject
    })
    this.service.once('start', () => resolveStarted())
    const ended = this.service.subscribe(plugin, slot).then(
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

  async stop(): Promise<void> {
    this.stopped = true
    await this.service.destroy().catch(() => {})
  }

  private read(message: Pgoutput.Message): void {
    switch (message.tag) {
      case 'begin':
        this.transaction = { commitTimestamp: new Date(Number((message.commitTime as unknown as bigint) / 1000n)).toISOString(), changes: [] }
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

/** Unchanged TOAST values come as undefined: such a column is left out of the row, as Supabase leaves it. */
function withoutUndefined(row: Record<string, unknown>): Record<string, string | null> {
  const result: Record<string, string | null> = {}
  for (const [name, value] of Object.entries(row)) if (value !== undefined) result[name] = value as string | null
  return result
}
