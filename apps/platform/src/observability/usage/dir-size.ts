import fs from 'node:fs'
import path from 'node:path'

interface DirEntryCache {
  mtimeMs: number
  files: string[]
  dirs: string[]
}

/**
 * The bytes a data directory holds on disk (du-like: allocated blocks, so sparse files count what they use).
 * Incremental: a directory's listing is read again only when its mtime changed (a file was created, removed or
 * renamed); the files are stat'ed every time, since a relation file grows without touching its directory.
 */
export class DirectorySizer {
  private readonly listings = new Map<string, DirEntryCache>()

  size(root: string): number | null {
    if (!fs.existsSync(root)) return null
    const seen = new Set<string>()
    const total = this.walk(root, seen)
    // Directories gone since the last walk (a dropped database) leave the cache.
    for (const dir of this.listings.keys()) if (dir.startsWith(root) && !seen.has(dir)) this.listings.delete(dir)
    return total
  }

  private walk(dir: string, seen: Set<string>): number {
    const stat = fs.statSync(dir, { throwIfNoEntry: false })
    if (!stat?.isDirectory()) return 0
    seen.add(dir)
    let listing = this.listings.get(dir)
    if (!listing || listing.mtimeMs !== stat.mtimeMs) {
      listing = { mtimeMs: stat.mtimeMs, files: [], dirs: [] }
      try {
        for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
          if (entry.isDirectory()) listing.dirs.push(path.join(dir, entry.name))
          else if (entry.isFile()) listing.files.push(path.join(dir, entry.name))
        }
      } catch {
        return 0 // removed while walking
      }
      this.listings.set(dir, listing)
    }
    let total = stat.blocks * 512
    for (const file of listing.files) {
      const fileStat = fs.statSync(file, { throwIfNoEntry: false })
      if (fileStat) total += fileStat.blocks * 512
    }
    for (const child of listing.dirs) total += this.walk(child, seen)
    return total
  }
}
