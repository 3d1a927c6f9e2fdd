import type { AiTitleResponse } from '@stratum/contracts'
import { generateText } from 'ai'
import { AiProviderError, providerMessage } from './errors.js'
import { stripCodeFences } from './fences.js'
import type { AiLanguageModel } from './model.js'

export const TITLE_MAX_CHARS = 50
export const DESCRIPTION_MAX_CHARS = 200
/** A title needs the gist of the SQL, not all of a long script. */
export const TITLE_SQL_MAX_CHARS = 8_000

/**
 * Plain text generation asking for JSON, rather than the SDK's structured output: that needs
 * provider support (json_schema) that many OpenAI-compatible servers lack. The answer is parsed
 * leniently below instead.
 */
export const TITLE_SYSTEM_PROMPT = [
  'You name SQL snippets saved in a Postgres SQL editor.',
  'Answer with one JSON object and nothing else: {"title": "...", "description": "..."}.',
  'title: at most 50 characters, in sentence case, no quotes, no trailing period; say what the SQL does (e.g. "Monthly revenue by customer").',
  'description: one sentence that describes what the SQL does.',
].join('\n')

/** One line, no wrapping quotes or "Title:" label, no trailing period, cut at a word when too long. */
export function cleanTitle(raw: string): string {
  let title = raw.replace(/\s+/g, ' ').trim()
  title = title.replace(/^(title|name)\s*:\s*/i, '').replace(/^#+\s*/, '')
  // Quotes and a period, in either order ('"Count rows".', '"Count rows."'), until none is left.
  for (let previous = ''; previous !== title; ) {
    previous = title
    title = title.replace(/^["'`*_“”‘’]+|["'`*_“”‘’]+$/g, '').replace(/[.\s]+$/, '').trim()
  }
  if (title.length > TITLE_MAX_CHARS) {
    const cut = title.slice(0, TITLE_MAX_CHARS + 1)
    const space = cut.lastIndexOf(' ')
    title = (space > TITLE_MAX_CHARS / 2 ? cut.slice(0, space) : cut.slice(0, TITLE_MAX_CHARS)).replace(/[\s,;:.-]+$/, '')
  }
  return title
}

function cleanDescription(raw: string): string {
  let text = raw.replace(/\s+/g, ' ').trim()
  text = text.replace(/^(description)\s*:\s*/i, '').replace(/^["'`]+|["'`]+$/g, '').trim()
  if (text.length > DESCRIPTION_MAX_CHARS) text = `${text.slice(0, DESCRIPTION_MAX_CHARS - 1).trimEnd()}…`
  return text
}

/** The first {...} of the text that parses as JSON with a string title. */
function findJson(text: string): { title: string; description?: unknown } | null {
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start === -1 || end <= start) return null
  try {
    const value = JSON.parse(text.slice(start, end + 1)) as unknown
    if (value && typeof value === 'object' && typeof (value as { title?: unknown }).title === 'string') return value as { title: string }
  } catch {
    /* not JSON: the plain-text reading below */
  }
  return null
}

/**
 * Reads a model's answer: the JSON object asked for (possibly in a code fence or among other
 * text), or else plain text whose first line is the title and whose next line is the description.
 * Null when nothing usable is left.
 */
export function parseTitleAnswer(answer: string): AiTitleResponse | null {
  const text = stripCodeFences(answer.trim())
  const json = findJson(text) ?? findJson(answer)
  if (json) {
    const title = cleanTitle(json.title)
    if (title) return { title, description: typeof json.description === 'string' ? cleanDescription(json.description) : '' }
  }
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('```') && line !== '{' && line !== '}')
  const title = cleanTitle(lines[0] ?? '')
  if (!title) return null
  return { title, description: cleanDescription(lines.slice(1).join(' ')) }
}

/** A title and description for a snippet's SQL. Provider failures become AiProviderError. */
export async function generateTitle(model: AiLanguageModel, sql: string, abortSignal?: AbortSignal): Promise<AiTitleResponse> {
  const trimmed = sql.trim()
  const shown = trimmed.length > TITLE_SQL_MAX_CHARS ? `${trimmed.slice(0, TITLE_SQL_MAX_CHARS)}\n-- (rest of the script left out)` : trimmed
  let text: string
  try {
    const result = await generateText({
      model,
      system: TITLE_SYSTEM_PROMPT,
      prompt: `SQL:\n${shown}`,
      temperature: 0,
      maxOutputTokens: 200,
      maxRetries: 1,
      abortSignal,
    })
    text = result.text
  } catch (error) {
    throw new AiProviderError(providerMessage(error))
  }
  const parsed = parseTitleAnswer(text)
  if (!parsed) throw new AiProviderError('The AI provider returned no title')
  return parsed
}
