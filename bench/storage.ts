/**
 * `npm run bench`, storage (issue 12), against a platform run as `npm start` runs it:
 *
 * - upload throughput: 256 MB streamed from memory to `POST /storage/v1/object/{bucket}/{path}`
 *   (service role), against writing the same bytes from memory to a file on the same disk and fsyncing
 *   it (the service fsyncs each upload before its row commits);
 * - download throughput: the object read back through `GET /storage/v1/object/public/...` to the end,
 *   against reading that file from disk to the end.
 * Goal: each ratio (platform throughput / disk throughput) >= 0.7. Each pair runs three times, alternating,
 * and the median of each side is compared, so a noisy moment hits both alike.
 * - small objects (issue 32, the project URL's fast path for storage): p50 of a 1 KB download with the service key
 *   (key check, JWT, the object's row, the file) against the bare Node HTTP server sending a 1 KB file, one kept-alive
 *   connection each, in alternating turns.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawn } from 'node:child_process'
import http from 'node:http'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { recordFigures, ratioOf } from './figures.js'
import { call, median, startBenchPlatform, untilStatus } from './platform.js'

const PORT = 8797
const PORT_BLOCK = 30_000
const SIZE = 256 * 1024 * 1024
const ROUNDS = 3
const GOAL = 0.7
/** Every file stream of the bench, client and baseline alike, moves 1 MB at a time. */
const FILE_BUFFERS = { highWaterMark: 1024 * 1024 }

const SMALL_TURNS = 10
const SMALL_PER_TURN = 50

const mbPerSecond = (ms: number) => SIZE / 1024 / 1024 / (ms / 1000)

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}

/** The bytes of every upload and of the disk baseline: one 1 MB chunk, SIZE / 1 MB times, from memory. */
const CHUNK = Buffer.alloc(1024 * 1024, 7)
const source = () => Readable.from((function* () {
  for (let i = 0; i < SIZE / CHUNK.length; i++) yield CHUNK
})())

/** What the storage service does with an upload's bytes, without HTTP: write them, then fsync. */
async function writeDurably(file: string): Promise<void> {
  await pipeline(source(), fs.createWriteStream(file, FILE_BUFFERS))
  const handle = await fs.promises.open(file, 'r')
  await handle.sync()
  await handle.close()
}

/** Reads a stream to its end, keeping nothing (what a client that streams elsewhere costs, minus the elsewhere). */
async function drain(stream: NodeJS.ReadableStream): Promise<number> {
  let bytes = 0
  for await (const chunk of stream) bytes += (chunk as Buffer).length
  return bytes
}

/**
 * The floor any HTTP file service pays here: a bare Node HTTP server in its own process that writes
 * (and fsyncs) what it receives and sends a file back, with no routing, database or checks.
 */
const BARE_SERVER = `
const http = require('node:http'), fs = require('node:fs'), path = require('node:path')
const dir = process.argv[1]
http.createServer((req, res) => {
  const file = path.join(dir, 'bare.bin')
  if (req.method === 'POST') {
    const out = fs.createWriteStream(file, { highWaterMark: 1 << 20 })
    req.pipe(out).on('finish', () => { const fd = fs.openSync(file, 'r'); fs.fsyncSync(fd); fs.closeSync(fd); res.end('{}') })
  } else {
    res.writeHead(200, { 'content-length': fs.statSync(file).size })
    fs.createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res)
  }
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n') })
`

async function startBareServer(dir: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', BARE_SERVER, dir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const port = await new Promise<string>((resolve) => child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())))
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() }
}

/**
 * p50 of 1 KB downloads through /storage/v1 (authenticated path: key, JWT, row, file) and from the bare server, one
 * kept-alive connection each, in alternating turns.
 */
async function smallDownloads(storage: string, headers: Record<string, string>, bareUrl: string, dir: string): Promise<{ storage: number; bare: number }> {
  const bytes = Buffer.alloc(1024, 'a')
  fs.writeFileSync(path.join(dir, 'bare.bin'), bytes)
  const stored = await fetch(`${storage}/object/bench/small.txt`, { method: 'POST', headers: { ...headers, 'content-type': 'text/plain' }, body: bytes })
  if (!stored.ok) throw new Error(`small upload: ${stored.status} ${await stored.text()}`)
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = async (url: string, extra: Record<string, string>) => {
    const response = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(url, { agent, headers: extra }, resolve).once('error', reject))
    if (response.statusCode !== 200) throw new Error(`small download: ${response.statusCode}`)
    if ((await drain(response)) !== bytes.length) throw new Error('small download: short read')
  }
  const storageTimes: number[] = []
  const bareTimes: number[] = []
  try {
    for (let warm = 0; warm < 20; warm++) {
      await get(`${storage}/object/bench/small.txt`, headers)
      await get(bareUrl, {})
    }
    for (let turn = 0; turn < SMALL_TURNS; turn++) {
      for (let n = 0; n < SMALL_PER_TURN; n++) storageTimes.push(await timed(() => get(`${storage}/object/bench/small.txt`, headers)))
      for (let n = 0; n < SMALL_PER_TURN; n++) bareTimes.push(await timed(() => get(bareUrl, {})))
    }
  } finally {
    agent.destroy()
  }
  return { storage: median(storageTimes), bare: median(bareTimes) }
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-storage-'))
  const platform = await startBenchPlatform(PORT, PORT_BLOCK)
  try {
    const project = await call(platform, 'POST', '/platform/projects', { name: 'Storage bench', organization_slug: platform.slug, db_pass: 'bench-db-password' })
    await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
    const keys = (await call(platform, 'GET', `/v1/projects/${project.ref}/api-keys`)) as Array<{ name: string; api_key: string }>
    const service = keys.find((key) => key.name === 'service_role')!.api_key
    const storage = `${platform.apiBase}/projects/${project.ref}/storage/v1`
    const headers = { apikey: service, authorization: `Bearer ${service}` }
    const created = await fetch(`${storage}/bucket`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', public: true }) })
    if (!created.ok) throw new Error(`bucket: ${created.status} ${await created.text()}`)

    // Node's own http client, piping files: what is measured is the platform, not a client's stream adapters.
    const upload = async (name: string, url = `${storage}/object/bench/${name}`) => {
      const request = http.request(url, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(SIZE) },
      })
      const answered = new Promise<http.IncomingMessage>((resolve, reject) => request.once('response', resolve).once('error', reject))
      await pipeline(source(), request)
      const response = await answered
      response.resume()
      if (response.statusCode !== 200) throw new Error(`upload: ${response.statusCode}`)
    }
    const download = async (name: string, url = `${storage}/object/public/bench/${name}`) => {
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(url, resolve).once('error', reject))
      if (response.statusCode !== 200) throw new Error(`download: ${response.statusCode}`)
      if ((await drain(response)) !== SIZE) throw new Error('download: short read')
    }

    await upload('warm.bin') // first-use costs (schema check, pools) stay out of the figures
    const uploads: number[] = []
    const diskWrites: number[] = []
    const downloads: number[] = []
    const diskReads: number[] = []
    const bare = await startBareServer(dir)
    const bareUploads: number[] = []
    const bareDownloads: number[] = []
    let small: { storage: number; bare: number } = { storage: NaN, bare: NaN }
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const file = path.join(dir, `baseline-${round}.bin`)
        uploads.push(await timed(() => upload(`round-${round}.bin`)))
        bareUploads.push(await timed(() => upload('', bare.url)))
        diskWrites.push(await timed(() => writeDurably(file)))
        downloads.push(await timed(() => download(`round-${round}.bin`)))
        bareDownloads.push(await timed(() => download('', bare.url)))
        diskReads.push(await timed(async () => void (await drain(fs.createReadStream(file, FILE_BUFFERS)))))
        fs.rmSync(file, { force: true })
      }
      small = await smallDownloads(storage, headers, bare.url, dir)
    } finally {
      bare.stop()
    }
    const up = mbPerSecond(median(uploads))
    const write = mbPerSecond(median(diskWrites))
    const down = mbPerSecond(median(downloads))
    const read = mbPerSecond(median(diskReads))
    const bareUp = mbPerSecond(median(bareUploads))
    const bareDown = mbPerSecond(median(bareDownloads))
    console.log(`\nStorage (${SIZE / 1024 / 1024} MB, median of ${ROUNDS}; ${os.cpus().length} cores)`)
    console.log(`  upload through /storage/v1:   ${up.toFixed(0)} MB/s   vs writing + fsyncing the file ${write.toFixed(0)} MB/s   ratio ${(up / write).toFixed(2)} (goal >= ${GOAL})`)
    console.log(`  download through /storage/v1: ${down.toFixed(0)} MB/s   vs reading the file ${read.toFixed(0)} MB/s   ratio ${(down / read).toFixed(2)} (goal >= ${GOAL})`)
    console.log(`  the floor of HTTP on this machine (bare Node server, same client): upload ${bareUp.toFixed(0)} MB/s, download ${bareDown.toFixed(0)} MB/s;`)
    console.log(`  storage vs that floor: upload ${(up / bareUp).toFixed(2)}, download ${(down / bareDown).toFixed(2)}`)
    console.log(`  1 KB download p50: ${small.storage.toFixed(2)} ms through /storage/v1, ${small.bare.toFixed(2)} ms from the bare server, ratio ${(small.storage / small.bare).toFixed(2)}`)

    // Two floors each: the disk (issue 12's goal is written against it) and a bare Node HTTP server (issue 32: keep).
    const rate = (value: number) => `${value.toFixed(0)} MB/s`
    const size = `${SIZE / 1024 / 1024} MB`
    recordFigures('storage', [
      { name: `upload through /storage/v1, ${size} (median)`, now: rate(up), floor: `writing + fsyncing the same bytes to a file ${rate(write)}`, ratio: ratioOf(up, write), goal: `>= ${GOAL}x the disk`, met: up / write >= GOAL },
      { name: `download through /storage/v1, ${size} (median)`, now: rate(down), floor: `reading the file to the end ${rate(read)}`, ratio: ratioOf(down, read), goal: `>= ${GOAL}x the disk`, met: down / read >= GOAL },
      { name: `upload through /storage/v1 vs bare HTTP, ${size}`, now: rate(up), floor: `a bare Node HTTP server writing + fsyncing ${rate(bareUp)}`, ratio: ratioOf(up, bareUp), goal: 'none set (issue 32: keep)' },
      { name: `download through /storage/v1 vs bare HTTP, ${size}`, now: rate(down), floor: `a bare Node HTTP server sending the file ${rate(bareDown)}`, ratio: ratioOf(down, bareDown), goal: 'none set (issue 32: keep)' },
      {
        name: `download of a 1 KB object with the service key (p50 of ${SMALL_TURNS * SMALL_PER_TURN})`,
        now: `${small.storage.toFixed(2)} ms`,
        floor: `a bare Node HTTP server sending a 1 KB file ${small.bare.toFixed(2)} ms`,
        ratio: ratioOf(small.storage, small.bare),
        goal: 'none set (issue 32: the fast path, as REST)',
      },
    ])
  } finally {
    await platform.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

await main()
