import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = path.resolve(import.meta.dirname, '../src')

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })
}

/** Issue 33, item 6: every screen's text true today. */
describe('screen texts', () => {
  it('promise no later release anywhere: every page the router names exists', () => {
    const offenders = sourceFiles(SRC)
      .filter((file) => /later release|comes later|coming soon/i.test(fs.readFileSync(file, 'utf8').replace(/^\s*(\/\/|\/\*|\*).*$/gm, '')))
      .map((file) => path.relative(SRC, file))
    expect(offenders).toEqual([])
  })
})
