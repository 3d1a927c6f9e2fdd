/** Characters that make a pattern more than plain text for Postgres' regular expressions (ARE) and RE2 alike. */
const META = /[\\^$.|?*+()[\]{}]/
/** Shortest literal worth a substring check before the regular expression (shorter ones filter out little). */
const MIN_PREFILTER = 3

/**
 * What a regexp_contains pattern says about the text it matches, for a cheaper test in front of the regular
 * expression: Postgres' regex engine costs about three times a substring search per line (bench/logs.ts: a
 * count over half a million lines with `~ 'deadlock'` takes ~480 ms, with strpos ~140 ms).
 * - `{ whole: true }`: the pattern is plain text, so the match is exactly "contains this text".
 * - `{ whole: false }`: every match contains this text (a longest run of plain characters outside any group,
 *   class, alternation or escape), so a line without it can be skipped before the regular expression runs.
 * - null: nothing safe to say (alternation, groups, classes, escapes, counted repetition, or no run long enough).
 */
export function requiredText(pattern: string): { text: string; whole: boolean } | null {
  if (!META.test(pattern)) return { text: pattern, whole: true }
  if (/[\\|()[\]{}]/.test(pattern)) return null
  // A quantifier with nothing to repeat is an error the regular expression must still raise (the check in front
  // would skip it on lines without the text): at the start, after an anchor or after another quantifier
  // (`*?`, `+?` and `??` are the lazy forms, allowed). `***` also starts Postgres' director prefixes.
  if (/^[?*+]|[\^$][?*+]|[?*+][*+]|\?\?\?/.test(pattern)) return null
  let best = ''
  let run = ''
  for (let at = 0; at <= pattern.length; at++) {
    const char = pattern[at]
    if (char !== undefined && !META.test(char)) {
      run += char
      continue
    }
    // `x?` and `x*` may match no x at all: the run's last character is not required. `x+` keeps it.
    const required = char === '?' || char === '*' ? run.slice(0, -1) : run
    if (required.length > best.length) best = required
    run = ''
  }
  return best.length >= MIN_PREFILTER ? { text: best, whole: false } : null
}
