/**
 * `npm run bench`, storage (issue 12), against a platform run as `npm start` runs it:
 *
 * - upload throughput: a 256 MB file streamed to `POST /storage/v1/object/{bucket}/{path}` (service
 *   role), against the baseline of copying the same file to another file on the same disk;
 * - download throughput: the same object read back through `GET /storage/v1/object/public/...` into a
 *   file, against reading the file into another file on disk.
 * Goal: each ratio (platform throughput / disk throughput) >= 0.7. Each pair runs three times, alternating,
 * and the median of each side is compared, so a noisy moment hits both alike.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import http from 'node:http'
import { pipeline } from 'node:stream/promises'
import { call, median, startBenchPlatform, untilStatus } from './platform.js'

const PORT = 8797
const PORT_BLOCK = 30_000
const SIZE = 256 * 1024 * 1024
const ROUNDS = 3
const GOAL = 0.7

const mbPerSecond = (ms: number) => SIZE / 1024 / 1024 / (ms / 1000)

async function timed(work: () => Promise<void>): Promise<number> {
  const started = performance.now()
  await work()
  return performance.now() - started
}

async function writeSource(file: string): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024)
  for (let i = 0; i < chunk.length; i++) chunk[i] = (i * 31) & 0xff
  const out = fs.createWriteStream(file)
  for (let i = 0; i < SIZE / chunk.length; i++) if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  await new Promise<void>((resolve) => out.end(() => resolve()))
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-bench-storage-'))
  const platform = await startBenchPlatform(PORT, PORT_BLOCK)
  try {
    const project = await call(platform, 'POST', '/platform/projects', { name: 'Storage bench', organization_slug: platform.slug, db_pass: 'bench-db-password' })
    await untilStatus(platform, project.ref, 'ACTIVE_HEALTHY')
    const keys = (await call(platform, 'GET', `/v1/projects/${project.ref}/api-keys`)) as Array<{ name: string; api_key: string }>
    const service = keys.find((key) => key.name === 'service_role')!.api_key
    const storage = `${platform.base}/projects/${project.ref}/storage/v1`
    const headers = { apikey: service, authorization: `Bearer ${service}` }
    const created = await fetch(`${storage}/bucket`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'bench', public: true }) })
    if (!created.ok) throw new Error(`bucket: ${created.status} ${await created.text()}`)

    const source = path.join(dir, 'source.bin')
    await writeSource(source)
    // Node's own http client, piping files: what is measured is the platform, not a client's stream adapters.
    const upload = async (name: string) => {
      const request = http.request(`${storage}/object/bench/${name}`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/octet-stream', 'content-length': String(SIZE) },
      })
      const answered = new Promise<http.IncomingMessage>((resolve, reject) => request.once('response', resolve).once('error', reject))
      await pipeline(fs.createReadStream(source, { highWaterMark: 1024 * 1024 }), request)
      const response = await answered
      response.resume()
      if (response.statusCode !== 200) throw new Error(`upload: ${response.statusCode}`)
    }
    const download = async (name: string, target: string) => {
      const response = await new Promise<http.IncomingMessage>((resolve, reject) => http.get(`${storage}/object/public/bench/${name}`, resolve).once('error', reject))
      if (response.statusCode !== 200) throw new Error(`download: ${response.statusCode}`)
      await pipeline(response, fs.createWriteStream(target))
    }

    await upload('warm.bin') // first-use costs (schema check, pools) stay out of the figures
    const uploads: number[] = []
    const diskWrites: number[] = []
    const downloads: number[] = []
    const diskReads: number[] = []
    for (let round = 0; round < ROUNDS; round++) {
      uploads.push(await timed(() => upload(`round-${round}.bin`)))
      diskWrites.push(await timed(() => pipeline(fs.createReadStream(source), fs.createWriteStream(path.join(dir, `copy-${round}.bin`)))))
      downloads.push(await timed(() => download(`round-${round}.bin`, path.join(dir, `down-${round}.bin`))))
      diskReads.push(await timed(() => pipeline(fs.createReadStream(path.join(dir, `copy-${round}.bin`)), fs.createWriteStream(path.join(dir, `read-${round}.bin`)))))
      for (const name of [`copy-${round}.bin`, `down-${round}.bin`, `read-${round}.bin`]) fs.rmSync(path.join(dir, name), { force: true })
    }
    const up = mbPerSecond(median(uploads))
    const write = mbPerSecond(median(diskWrites))
    const down = mbPerSecond(median(downloads))
    const read = mbPerSecond(median(diskReads))
    console.log(`\nStorage (${SIZE / 1024 / 1024} MB, median of ${ROUNDS}; ${os.cpus().length} cores)`)
    console.log(`  upload through /storage/v1:   ${up.toFixed(0)} MB/s   vs file copy on disk ${write.toFixed(0)} MB/s   ratio ${(up / write).toFixed(2)} (goal >= ${GOAL})`)
    console.log(`  download through /storage/v1: ${down.toFixed(0)} MB/s   vs file copy on disk ${read.toFixed(0)} MB/s   ratio ${(down / read).toFixed(2)} (goal >= ${GOAL})`)
  } finally {
    await platform.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

await main()
