import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createClient } from '@supabase/supabase-js'
import WebSocket from 'ws'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ChildPlatform } from './child-platform.js'
import { api, login, waitFor, waitForStatus, type TestPlatform } from './harness.js'

/*
 * A 200 MB object up and down through supabase-js with the platform in its own process, whose resident
 * memory is sampled from /proc while the bytes flow: storage must stream both ways, never hold a file.
 */
const SIZE = 200 * 1024 * 1024
const MAX_GROWTH_MB = 50

let platform: ChildPlatform
let dir: string

beforeAll(async () => {
  platform = new ChildPlatform()
  await platform.start()
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'stratum-big-'))
})
afterAll(async () => {
  await platform?.cleanup()
  if (dir) fs.rmSync(dir, { recursive: true, force: true })
})

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024

async function writeSource(file: string): Promise<void> {
  const chunk = Buffer.alloc(1024 * 1024, 7)
  const out = fs.createWriteStream(file)
  for (let i = 0; i < SIZE / chunk.length; i++) if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  await new Promise<void>((resolve) => out.end(() => resolve()))
}

it('uploads and downloads 200 MB with the platform growing by less than 50 MB', async () => {
  const t = { platform: { url: platform.url } } as unknown as TestPlatform
  const cookie = await login(t)
  const slug = (await api(t, 'GET', '/platform/organizations', { cookie })).body[0].slug
  const ref = (await api(t, 'POST', '/platform/projects', { cookie }, { name: 'Big files', organization_slug: slug, db_pass: 'big-files-password-1' })).body.ref
  await waitForStatus(t, ref, { cookie }, 'ACTIVE_HEALTHY', 60_000)
  const settings = (await api(t, 'GET', `/platform/projects/${ref}/settings`, { cookie })).body
  const serviceKey = settings.service_api_keys.find((key: { tags: string }) => key.tags === 'service_role').api_key
  const supabase = createClient(`${platform.apiUrl}/projects/${ref}`, serviceKey, { realtime: { transport: WebSocket as never }, auth: { persistSession: false } })
  // The gateway hears of the new status through a notification: until then it answers 503.
  await waitFor(async () => (await supabase.storage.listBuckets()).error?.status !== 503, { what: 'the gateway to see the project running' })
  expect((await supabase.storage.createBucket('big', { public: true })).error).toBeNull()
  // A first small round trip: pools, schema and code paths are warm before the baseline is read.
  expect((await supabase.storage.from('big').upload('warm.bin', Buffer.alloc(1024))).error).toBeNull()
  await (await fetch(supabase.storage.from('big').getPublicUrl('warm.bin').data.publicUrl)).arrayBuffer()

  const source = path.join(dir, 'source.bin')
  await writeSource(source)
  const pid = platform.pid!
  const before = rssMb(pid)
  let peak = before
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 10)
  try {
    const uploaded = await supabase.storage.from('big').upload('file.bin', fs.createReadStream(source), { contentType: 'application/octet-stream' })
    expect(uploaded.error).toBeNull()
    const response = await fetch(supabase.storage.from('big').getPublicUrl('file.bin').data.publicUrl)
    expect(response.headers.get('content-length')).toBe(String(SIZE))
    const target = path.join(dir, 'target.bin')
    await pipeline(Readable.fromWeb(response.body as never), fs.createWriteStream(target))
    expect(fs.statSync(target).size).toBe(SIZE)
  } finally {
    clearInterval(sampler)
  }
  console.log(`storage 200 MB round trip: platform RSS ${before.toFixed(1)} MB -> peak ${peak.toFixed(1)} MB`)
  expect(peak - before).toBeLessThan(MAX_GROWTH_MB)
})
