// Bundles the platform's TypeScript, with the workspace packages it imports (@stratum/*), into dist/cli.js and
// its chunks: `stratum` runs compiled JavaScript, not a TypeScript loader, and builds on first start when the
// sources are newer than the bundle (as `npm start` does for the dashboard). Packages from node_modules stay
// external. Code split at dynamic imports, so a one-off command (`stratum token create`) loads only what it uses.
// Run directly (`node apps/platform/build.mjs`) to build unconditionally.
import fs from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'

const root = import.meta.dirname
const repo = path.resolve(root, '../..')
export const PLATFORM_BUNDLE = path.join(root, 'dist', 'cli.js')
const INPUTS = [
  path.join(root, 'src'),
  path.join(repo, 'packages/contracts/src'),
  path.join(repo, 'packages/sql/src'),
  path.join(root, 'build.mjs'),
  path.join(root, 'package.json'),
]

function newestChange(entry) {
  const stat = fs.statSync(entry, { throwIfNoEntry: false })
  if (!stat) return 0
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const name of fs.readdirSync(entry)) newest = Math.max(newest, newestChange(path.join(entry, name)))
  return newest
}

export function platformBundleIsStale() {
  const builtAt = fs.statSync(PLATFORM_BUNDLE, { throwIfNoEntry: false })?.mtimeMs ?? 0
  return INPUTS.some((input) => newestChange(input) > builtAt)
}

/** Bare imports other than the workspace's own packages are loaded from node_modules at run time. */
const packagesStayExternal = {
  name: 'packages-stay-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => (args.path.startsWith('@stratum/') ? undefined : { path: args.path, external: true }))
  },
}

/**
 * esbuild's options for a bundle of the platform from `entry`: src/cli.ts for `stratum` (buildPlatform below); the
 * SQL route bench bundles src/main.ts the same way, so that it measures the code `stratum start` runs.
 */
export function platformBundleOptions(entry, outdir) {
  return {
    entryPoints: [entry],
    outdir,
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    sourcemap: 'linked',
    sourcesContent: false,
    logLevel: 'warning',
    plugins: [packagesStayExternal],
  }
}

export async function buildPlatform() {
  const { build } = await import('esbuild')
  const result = await build({ ...platformBundleOptions(path.join(root, 'src/cli.ts'), path.dirname(PLATFORM_BUNDLE)), write: false })
  // Several processes may start at once (tests spawn platforms in parallel): each writes its own temporary
  // files and renames them into place, chunks (named by their content's hash) before the entry that imports
  // them, so no process ever imports a half-written bundle. Chunks of earlier builds stay a day: a platform
  // started before the rebuild still loads its own on first use.
  const outputs = [...result.outputFiles].sort((a, b) => Number(a.path === PLATFORM_BUNDLE) - Number(b.path === PLATFORM_BUNDLE))
  for (const output of outputs) {
    fs.mkdirSync(path.dirname(output.path), { recursive: true })
    const temporary = `${output.path}.${process.pid}.tmp`
    fs.writeFileSync(temporary, output.contents)
    fs.renameSync(temporary, output.path)
  }
  removeOldChunks(new Set(outputs.map((output) => output.path)))
}

function removeOldChunks(current) {
  const dir = path.join(path.dirname(PLATFORM_BUNDLE), 'chunks')
  const dayAgo = Date.now() - 24 * 3600_000
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name)
    if (!current.has(file) && (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < dayAgo) fs.rmSync(file, { force: true })
  }
}

export async function ensurePlatformBuilt() {
  if (platformBundleIsStale()) await buildPlatform()
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await buildPlatform()
