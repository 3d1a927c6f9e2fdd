import fs from 'node:fs'
import path from 'node:path'

/**
 * apps/platform: the nearest folder above this module with a package.json. The module runs from src/ (tests,
 * `npm run dev`) or bundled into a chunk under dist/ (`stratum start`, see build.mjs), at different depths.
 */
function findPlatformRoot(): string {
  for (let dir = import.meta.dirname; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'package.json'))) return dir
    if (path.dirname(dir) === dir) throw new Error(`No package.json above ${import.meta.dirname}`)
  }
}

export const PLATFORM_ROOT = findPlatformRoot()

/** The repository's root, where the default data directory (.stratum) lives. */
export const REPO_ROOT = path.resolve(PLATFORM_ROOT, '../..')

/** A file the platform reads from its own sources at run time (SQL migrations, a worker's plain JavaScript). */
export function platformSourcePath(...segments: string[]): string {
  return path.join(PLATFORM_ROOT, 'src', ...segments)
}
