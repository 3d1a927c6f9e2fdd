import { Readable } from 'node:stream'
import { connect, type LogicalConnection } from './connection.js'
import { pgDumpArguments, type DumpOptions } from './dump-options.js'
import { rolesPreamble } from './roles-preamble.js'
import { runWasmPgDump } from './wasm-pg-dump.js'

/**
 * A plain-SQL logical dump of one database of a real Postgres 15 or 17 server, as a byte stream
 * (UTF-8 SQL, the format of `pg_dump --format=plain`). It restores with restoreDump() or with
 * psql into a fresh instance of the same or a newer major version.
 *
 * The dump comes from the WASM pg_dump (version 18) of @electric-sql/pglite-tools, bridged to the
 * server over TCP (wasm-pg-dump.ts); it is streamed, so its size does not matter to memory. It is
 * one consistent snapshot (pg_dump's repeatable-read transaction), preceded by the roles it refers
 * to (roles-preamble.ts). The stream errors with pg_dump's own message when the dump fails.
 */
export function dumpDatabase(conn: LogicalConnection, options: DumpOptions = {}): Readable {
  return Readable.from(generateDump(conn, options), { objectMode: false, highWaterMark: 1 << 20 })
}

async function* generateDump(conn: LogicalConnection, options: DumpOptions): AsyncGenerator<Buffer | string> {
  const includeRoles = options.includeRoles ?? options.section !== 'data'
  const client = await connect(conn, 'stratum logical dump')
  let serverVersion: number
  let preamble = ''
  try {
    const { rows } = await client.query<{ v: string }>("SELECT current_setting('server_version_num') AS v")
    serverVersion = Number(rows[0]!.v)
    if (includeRoles) preamble = await rolesPreamble(client)
  } finally {
    await client.end()
  }
  if (preamble) yield preamble
  const dump = runWasmPgDump(conn, pgDumpArguments(options))
  // pg_dump 18 sets transaction_timeout whatever the server; a 15 or 16 server (and so a restore
  // of this dump into one, such as a backup of a PG 15 project) does not know the setting.
  yield* serverVersion < 170000 ? withoutHeaderLine(dump, 'SET transaction_timeout = 0;\n') : dump
}

/** End of the fixed settings block pg_dump writes before any object. */
const HEADER_END = 'SET row_security = off;\n'
const HEADER_MAX_BYTES = 64 * 1024

/**
 * Removes one line from the settings block at the top of the dump; only there, since the same
 * text further down could be a row of COPY data.
 */
async function* withoutHeaderLine(chunks: AsyncIterable<Buffer>, line: string): AsyncGenerator<Buffer> {
  let head: Buffer | undefined = Buffer.alloc(0)
  const release = (buffer: Buffer) => {
    const end = buffer.indexOf(HEADER_END)
    const at = buffer.indexOf('\n' + line)
    const cut = at >= 0 && (end < 0 || at < end) ? at + 1 : -1
    return cut < 0 ? buffer : Buffer.concat([buffer.subarray(0, cut), buffer.subarray(cut + line.length)])
  }
  for await (const chunk of chunks) {
    if (!head) {
      yield chunk
      continue
    }
    head = Buffer.concat([head, chunk])
    if (head.indexOf(HEADER_END) < 0 && head.length < HEADER_MAX_BYTES) continue
    yield release(head)
    head = undefined
  }
  if (head?.length) yield release(head)
}
