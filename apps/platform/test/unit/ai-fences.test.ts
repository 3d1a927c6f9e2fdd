import { describe, expect, it } from 'vitest'
import { createFenceStripper, stripCodeFences } from '../../src/ai/fences.js'

/** The stripper's output when the text arrives cut at the given positions. */
function streamed(text: string, cuts: number[]): string {
  const stripper = createFenceStripper()
  let out = ''
  let from = 0
  for (const cut of [...cuts, text.length]) {
    out += stripper.push(text.slice(from, cut))
    from = cut
  }
  return out + stripper.flush()
}

const CASES: Array<[string, string]> = [
  ['select 1;', 'select 1;'],
  ['```sql\nselect 1;\n```', 'select 1;'],
  ['```\nselect *\nfrom items;\n```\n', 'select *\nfrom items;'],
  ['\n  ```pgsql\nselect 1;\n```\nThis query selects one.', 'select 1;'],
  ['```sql\r\nselect 1;\r\n```', 'select 1;'],
  ['```sql\nselect 1;', 'select 1;'],
  ['```sql\nselect 1;\n', 'select 1;'],
  ['```sql\nselect 1;\n``', 'select 1;'],
  // Backticks that are not a fence stay: inside a line, or a line that turns into something else.
  ['select 1 as "a``b";', 'select 1 as "a``b";'],
  ['```sql\nselect 1 -- ``x\n`x`;\n```', 'select 1 -- ``x\n`x`;'],
  // No opening fence: the text passes through as it is, leading line breaks included.
  ['\nselect 1;\n', '\nselect 1;\n'],
  ['', ''],
  ['```', ''],
]

describe('markdown fence stripping', () => {
  it.each(CASES)('strips %j to %j', (input, expected) => {
    expect(stripCodeFences(input)).toBe(expected)
  })

  it('gives the same result however the stream is cut', () => {
    for (const [input, expected] of CASES) {
      for (let a = 0; a <= input.length; a++) {
        expect(streamed(input, [a]), `${JSON.stringify(input)} cut at ${a}`).toBe(expected)
        for (let b = a; b <= input.length; b += 3) expect(streamed(input, [a, b])).toBe(expected)
      }
      // One character at a time, as a slow model streams.
      expect(streamed(input, [...input].map((_, i) => i))).toBe(expected)
    }
  })

  it('passes unfenced text on as it arrives, and holds back only a possible fence line', () => {
    const plain = createFenceStripper()
    expect(plain.push('sel')).toBe('sel')
    expect(plain.push('ect 1')).toBe('ect 1')
    const fenced = createFenceStripper()
    expect(fenced.push('``')).toBe('')
    expect(fenced.push('`sql\nselect')).toBe('select')
    expect(fenced.push(' 1;\n')).toBe(' 1;')
    expect(fenced.push('``')).toBe('')
    expect(fenced.push('`\nexplanation')).toBe('')
    expect(fenced.flush()).toBe('')
  })
})
