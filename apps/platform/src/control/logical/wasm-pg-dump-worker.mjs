// @ts-check
/**
 * Worker thread that runs the WASM pg_dump of @electric-sql/pglite-tools against a real server.
 *
 * Plain JavaScript on purpose: a worker is a fresh Node isolate, and neither tsx's loader (in
 * production) nor Vite's transform (in tests) reaches it, so a .ts worker would not load.
 *
 * Why a worker at all: pg_dump's main() runs synchronously inside WASM and its libpq reads the
 * wire protocol through a synchronous callback. A real socket is asynchronous, so the reads block
 * here (Atomics.wait) while the parent thread, whose event loop stays free, owns the TCP socket and
 * fills a SharedArrayBuffer. The protocol is documented in wasm-pg-dump.ts, which must stay in step.
 */
import fs from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { parentPort, workerData } from 'node:worker_threads'

// Slots of the shared Int32Array (same numbers as in wasm-pg-dump.ts).
const READ_STATE = 0 // 0 idle, 1 waiting for the parent, 2 answered
const READ_LENGTH = 1 // bytes placed in the data buffer; 0 means the socket ended
const OUTPUT_PAUSED = 2 // 1 while the consumer of the dump wants no more output
const OUTPUT_DEVICE = '/dev/stratum-dump'
const OUTPUT_CHUNK = 256 * 1024

/**
 * The package exports only pgDump({ pg: PGlite }), which forces --inserts, `-U postgres` and writes
 * the whole dump into the WASM file system before returning it as one string. We need the
 * Emscripten factory underneath it, which the bundle keeps private: take its source out of the
 * bundled chunk (its start and end are Emscripten's fixed markers) and load it as a module.
 * The package version is pinned exactly in package.json; a layout change fails loudly here.
 */
async function loadPgDumpFactory() {
  const require = createRequire(import.meta.url)
  const dist = path.dirname(require.resolve('@electric-sql/pglite-tools/pg_dump'))
  const entry = fs.readFileSync(path.join(dist, 'pg_dump.js'), 'utf8')
  const chunkName = /from\s*"\.\/([^"]+\.js)"/.exec(entry)?.[1]
  if (!chunkName) throw new Error('@electric-sql/pglite-tools: cannot find the pg_dump chunk')
  const source = fs.readFileSync(path.join(dist, chunkName), 'utf8')
  const startMarker = '(()=>{var _scriptName=import.meta.url;return async function(moduleArg={})'
  const endMarker = 'moduleRtn}})()'
  const start = source.indexOf(startMarker)
  const end = source.indexOf(endMarker, start)
  const helpers = source.slice(0, start) // bundler helpers the factory uses, ending in `var x=`
  if (start < 0 || end < 0 || !/var \w+=$/.test(helpers)) {
    throw new Error('@electric-sql/pglite-tools: unexpected bundle layout (pinned version changed?)')
  }
  const moduleText = helpers.replace(/var \w+=$/, 'export default ') + source.slice(start, end + endMarker.length)
  const loaded = await import('data:text/javascript,' + encodeURIComponent(moduleText))
  return { factory: loaded.default, wasmFile: path.join(dist, 'pg_dump.wasm') }
}

async function main() {
  const { control, data, args, env } = workerData
  const ctl = new Int32Array(control)
  const inbox = new Uint8Array(data)
  const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)

  let stderr = ''
  const keepStderr = (/** @type {string} */ text) => {
    stderr = (stderr + text + '\n').slice(-16_000)
  }

  // pg_dump writes through stdio in small pieces: gather them into chunks worth a message.
  /** @type {Buffer[]} */
  let pending = []
  let pendingBytes = 0
  const flushOutput = () => {
    if (pendingBytes === 0) return
    // Back-pressure: wait while the consumer is behind (the parent clears the flag and notifies).
    while (Atomics.load(ctl, OUTPUT_PAUSED) === 1) Atomics.wait(ctl, OUTPUT_PAUSED, 1)
    // A buffer of its own (not from Node's shared pool), so it can be transferred without a copy.
    const chunk = new Uint8Array(pendingBytes)
    let at = 0
    for (const piece of pending) {
      chunk.set(piece, at)
      at += piece.length
    }
    pending = []
    pendingBytes = 0
    port.postMessage({ type: 'output', chunk }, [chunk.buffer])
  }

  const { factory, wasmFile } = await loadPgDumpFactory()
  const mod = await factory({
    wasmBinary: fs.readFileSync(wasmFile),
    locateFile: (/** @type {string} */ file) => path.join(path.dirname(wasmFile), file),
    thisProgram: '/usr/bin/pg_dump',
    noExitRuntime: false,
    print: keepStderr,
    printErr: keepStderr,
    preRun: [
      (/** @type {any} */ m) => {
        Object.assign(m.ENV, env)
        // pg_dump checks that its own executable exists; give it one in the virtual file system.
        m.FS.mkdirTree('/usr/bin')
        m.FS.writeFile('/usr/bin/pg_dump', '')
        m.FS.chmod('/usr/bin/pg_dump', 0o755)
        // The dump goes to a character device whose writes leave the worker as they come,
        // instead of a file in the in-memory file system that would hold the whole dump.
        const device = m.FS.makedev(64, 0)
        m.FS.registerDevice(device, {
          open() {},
          close() {},
          read() {
            return 0
          },
          llseek() {
            return 0
          },
          write(/** @type {unknown} */ _stream, /** @type {Int8Array} */ heap, /** @type {number} */ offset, /** @type {number} */ length) {
            // Copied out of the WASM heap, which the next write reuses.
            pending.push(Buffer.copyBytesFrom(new Uint8Array(heap.buffer, heap.byteOffset + offset, length)))
            pendingBytes += length
            if (pendingBytes >= OUTPUT_CHUNK) flushOutput()
            return length
          },
        })
        m.FS.mkdev(OUTPUT_DEVICE, device)
      },
    ],
  })

  // libpq's send(): hand the bytes to the parent, which writes them to the socket.
  const write = mod.addFunction((/** @type {number} */ ptr, /** @type {number} */ length) => {
    port.postMessage({ type: 'write', bytes: mod.HEAPU8.slice(ptr, ptr + length) })
    return length
  }, 'iii')
  // libpq's recv(): block until the parent has bytes from the socket (or it ended: 0 = EOF).
  const read = mod.addFunction((/** @type {number} */ ptr, /** @type {number} */ max) => {
    Atomics.store(ctl, READ_STATE, 1)
    port.postMessage({ type: 'read', max: Math.min(max, inbox.length) })
    while (Atomics.load(ctl, READ_STATE) === 1) Atomics.wait(ctl, READ_STATE, 1)
    const length = Atomics.load(ctl, READ_LENGTH)
    if (length > 0) mod.HEAPU8.set(inbox.subarray(0, length), ptr)
    Atomics.store(ctl, READ_STATE, 0)
    return length
  }, 'iii')
  mod._pgl_set_rw_cbs(read, write)

  let exitCode
  try {
    exitCode = mod.callMain([...args, '--file=' + OUTPUT_DEVICE])
  } catch (error) {
    const status = /** @type {{ status?: number }} */ (error)?.status
    exitCode = typeof status === 'number' ? status : 1
    if (typeof status !== 'number') keepStderr(String(error))
  }
  flushOutput()
  port.postMessage({ type: 'exit', code: exitCode, stderr })
}

main().catch((error) => {
  parentPort?.postMessage({ type: 'exit', code: 1, stderr: String(error?.stack ?? error) })
})
