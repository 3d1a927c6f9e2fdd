/**
 * The last part of `npm run bench`: every figure the benches recorded (figures.ts, bench/results/)
 * in one table in bench/README.md, regenerated on each run. Run alone (`tsx report.ts`) it rewrites
 * the README from the results already there.
 */
import fs from 'node:fs'
import path from 'node:path'
import { RESULTS_DIR, type BenchResult } from './figures.js'

const README = path.join(import.meta.dirname, 'README.md')

function readResults(): BenchResult[] {
  if (!fs.existsSync(RESULTS_DIR)) return []
  return fs
    .readdirSync(RESULTS_DIR)
    .filter((name) => name.endsWith('.json'))
    .map((name) => JSON.parse(fs.readFileSync(path.join(RESULTS_DIR, name), 'utf8')) as BenchResult)
    .sort((a, b) => a.bench.localeCompare(b.bench))
}

const cell = (value: string | number | undefined) => (value === undefined ? '' : String(value).replaceAll('|', '\\|'))
const verdict = (met: boolean | undefined) => (met === undefined ? '' : met ? 'met' : '**not met**')

export function renderReadme(results: BenchResult[]): string {
  const lines = [
    '# Benchmarks',
    '',
    'Written by `npm run bench` (bench/report.ts) from the figures each bench recorded (bench/figures.ts); do not edit',
    'by hand. Every figure stands beside a floor measured in the same run on the same machine: read the ratios, not',
    'the milliseconds. Load is the 1-minute load average when the bench started and ended (the machine has the CPUs shown).',
    '',
    '| Bench | Figure | Goal | Now | Floor (same run) | Ratio | Goal met | Run at | Load | CPUs |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ]
  for (const result of results) {
    for (const figure of result.figures) {
      lines.push(
        `| ${cell(result.bench)} | ${cell(figure.name)} | ${cell(figure.goal)} | ${cell(figure.now)} | ${cell(figure.floor)} | ${figure.ratio === undefined ? '' : `${figure.ratio}x`} | ${verdict(figure.met)} | ${result.at.slice(0, 16).replace('T', ' ')} | ${result.load.before} -> ${result.load.after} | ${result.cpus} |`,
      )
    }
  }
  if (!results.length) lines.push('| (no bench has run yet) | | | | | | | | | |')
  const unmet = results.flatMap((result) => result.figures.filter((figure) => figure.met === false).map((figure) => `${result.bench}: ${figure.name}`))
  lines.push('', unmet.length ? `Goals not met in the last run: ${unmet.length} (${unmet.join('; ')}).` : 'Every goal this run could judge was met.', '')
  return lines.join('\n')
}

if (import.meta.url === `file://${process.argv[1]}`) {
  fs.writeFileSync(README, renderReadme(readResults()))
  console.log(`bench/README.md: ${readResults().reduce((sum, result) => sum + result.figures.length, 0)} figures`)
}
