import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { platformBundleOptions } from '../apps/platform/build.mjs'

type StartPlatform = typeof import('../apps/platform/src/main.js').startPlatform

/**
 * startPlatform from a bundle built the way `stratum start` builds its own (apps/platform/build.mjs), for benches
 * that run the platform in their own process: the figures are those of the compiled code users run, not of tsx's
 * transform of the sources, which wraps every function made at run time in a naming helper (esbuild's keepNames).
 */
export async function bundledStartPlatform(): Promise<StartPlatform> {
  const { build } = await import('esbuild')
  const platform = path.resolve(import.meta.dirname, '../apps/platform')
  const outdir = path.join(platform, 'dist', 'bench')
  await build({ ...platformBundleOptions(path.join(platform, 'src', 'main.ts'), outdir), write: true })
  const main = (await import(pathToFileURL(path.join(outdir, 'main.js')).href)) as { startPlatform: StartPlatform }
  return main.startPlatform
}
