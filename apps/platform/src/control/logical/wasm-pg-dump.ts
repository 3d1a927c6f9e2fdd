import net from 'node:net'
import { Readable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import { libpqConnectionString, type LogicalConnection } from './connection.js'
import { platformSourcePath } from '../../platform-root.js'

// Slots of the shared Int32Array (same numbers as in wasm-pg-dump-worker.mjs).
const READ_STATE = 0
const READ_LENGTH = 1
const OUTPUT_PAUSED = 2

/** Largest single answer to a read of the worker's libpq. */
const INBOX_BYTES = 1 << 20
/** Socket bytes we hold for the worker before pausing the socket (TCP then slows the server). */
const SOCKET_HIGH_WATER = 8 << 20
const SOCKET_LOW_WATER = 2 << 20

type WorkerMessage =
  | { type: 'write'; bytes: Uint8Array }
  | { type: 'read'; max: number }
  | { type: 'output'; chunk: Uint8Array }
  | { type: 'exit'; code: number; stderr: string }

/**
 * Runs the WASM pg_dump with `args` against a real server and streams what it writes (the
 * `--file` argument is the worker's). The worker's libpq speaks the wire protocol through a TCP
 * socket held here: the worker posts the bytes it sends, and asks for bytes to receive, which we
 * answer through shared memory (see the worker for why).
 *
 * Memory stays bounded at both ends: the socket is paused when the worker falls behind, and the
 * worker waits when the consumer of the returned stream falls behind.
 */
export function runWasmPgDump(conn: LogicalConnection, args: string[]): Readable {
  const control = new Int32Array(new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT))
  const inbox = new Uint8Array(new SharedArrayBuffer(INBOX_BYTES))
  let worker: Worker | undefined
  let finished = false
  // Connect first, so an unreachable server is reported as such rather than as a libpq EOF.
  const socket = net.connect({ host: conn.host, port: conn.port })

  const output = new Readable({
    highWaterMark: 1 << 20,
    read() {
      Atomics.store(control, OUTPUT_PAUSED, 0)
      Atomics.notify(control, OUTPUT_PAUSED)
    },
    destroy(error, callback) {
      finished = true
      socket.destroy()
      void worker?.terminate()
      callback(error)
    },
  })
  const fail = (error: Error) => {
    if (!finished) output.destroy(error)
  }

  // Bytes from the server waiting for the worker, and the worker's outstanding read if any.
  const received: Buffer[] = []
  let receivedBytes = 0
  let socketEnded = false
  let socketError: Error | undefined
  let wantedBytes = 0

  const answerRead = () => {
    if (wantedBytes === 0 || (receivedBytes === 0 && !socketEnded)) return
    let length = 0
    while (received.length > 0 && length < wantedBytes) {
      const head = received[0]!
      const take = Math.min(head.length, wantedBytes - length)
      inbox.set(head.subarray(0, take), length)
      length += take
      if (take === head.length) received.shift()
      else received[0] = head.subarray(take)
    }
    receivedBytes -= length
    wantedBytes = 0
    if (socket.isPaused() && receivedBytes < SOCKET_LOW_WATER) socket.resume()
    Atomics.store(control, READ_LENGTH, length) // 0 once the socket ended: libpq sees EOF
    Atomics.store(control, READ_STATE, 2)
    Atomics.notify(control, READ_STATE)
  }

  const onMessage = (message: WorkerMessage) => {
    switch (message.type) {
      case 'write':
        socket.write(message.bytes)
        break
      case 'read':
        wantedBytes = message.max
        answerRead()
        break
      case 'output':
        if (!output.push(Buffer.from(message.chunk.buffer, message.chunk.byteOffset, message.chunk.length))) {
          Atomics.store(control, OUTPUT_PAUSED, 1)
        }
        break
      case 'exit': {
        finished = true
        socket.end()
        void worker?.terminate()
        if (message.code === 0) {
          output.push(null)
          break
        }
        const detail = message.stderr.trim() || socketError?.message || 'no message'
        output.destroy(new Error(`pg_dump failed (exit code ${message.code}): ${detail}`))
        break
      }
    }
  }

  const startWorker = () => {
    worker = new Worker(platformSourcePath('control', 'logical', 'wasm-pg-dump-worker.mjs'), {
      workerData: {
        control: control.buffer,
        data: inbox.buffer,
        args: [...args, '--dbname=' + libpqConnectionString(conn, 'stratum logical dump')],
        // Only inside the worker's WASM environment; --no-password in args keeps it from prompting.
        env: { PGPASSWORD: conn.password },
      },
      // The dump's own buffers live in WASM memory; this bounds the JavaScript side of the worker.
      resourceLimits: { maxOldGenerationSizeMb: 256 },
    })
    worker.on('message', onMessage)
    worker.on('error', (error) => fail(new Error(`pg_dump worker crashed: ${error.message}`)))
    worker.on('exit', (code) => {
      if (!finished) fail(new Error(`pg_dump worker stopped unexpectedly (exit code ${code})`))
    })
  }

  socket.setNoDelay(true)
  socket.once('connect', startWorker)
  socket.on('data', (data: Buffer) => {
    received.push(data)
    receivedBytes += data.length
    if (receivedBytes > SOCKET_HIGH_WATER) socket.pause()
    answerRead()
  })
  socket.on('error', (error) => {
    socketError = error
    if (!worker) fail(new Error(`pg_dump could not connect to ${conn.host}:${conn.port}: ${error.message}`))
  })
  socket.on('close', () => {
    socketEnded = true
    answerRead()
  })
  return output
}
