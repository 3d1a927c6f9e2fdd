/**
 * The figures a bench measured, each beside its goal and the floor measured in the same run, kept
 * for report.ts: `npm run bench` ends by writing them all into bench/README.md as one table, so the
 * README always holds the last run's numbers, not numbers someone typed.
 *
 * Each bench calls recordFigures once, at its end, with everything it measured; its file in
 * bench/results/ (not committed) is replaced, so a bench run alone updates its own rows only.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const RESULTS_DIR = path.join(import.meta.dirname, 'results')

export interface Figure {
  /** What was measured: 'SQL route, select 1 (p50)'. */
  name: string
  /** The figure, with its unit: '1.42 ms'. */
  now: string
  /** The floor measured in the same run, with what it is: 'bare Fastify + pg 1.10 ms'. */
  floor?: string
  /** now / floor (or the ratio the goal is written in). */
  ratio?: number
  /** The goal, in words: '<= 1.3x the bare route'. */
  goal: string
  /** Whether the goal is met; undefined when the goal is not a threshold this run can judge. */
  met?: boolean
}

export interface BenchResult {
  bench: string
  at: string
  /** The 1-minute load average when the bench started and when it ended: how busy the machine was. */
  load: { before: number; after: number }
  cpus: number
  figures: Figure[]
}

const loadAtStart = os.loadavg()[0]!

/** Writes this bench's figures (bench/results/<bench>.json) for report.ts. */
export function recordFigures(bench: string, figures: Figure[]): void {
  const result: BenchResult = {
    bench,
    at: new Date().toISOString(),
    load: { before: round(loadAtStart), after: round(os.loadavg()[0]!) },
    cpus: os.cpus().length,
    figures,
  }
  fs.mkdirSync(RESULTS_DIR, { recursive: true })
  fs.writeFileSync(path.join(RESULTS_DIR, `${bench}.json`), `${JSON.stringify(result, null, 2)}\n`)
}

/** A ratio as the table shows it: two decimals, or two significant digits below 0.1 (0.0042, not 0). */
export function ratioOf(now: number, floor: number): number {
  const ratio = now / floor
  return Math.abs(ratio) < 0.1 ? Number(ratio.toPrecision(2)) : round(ratio)
}

function round(value: number): number {
  return Math.round(value * 100) / 100
}
