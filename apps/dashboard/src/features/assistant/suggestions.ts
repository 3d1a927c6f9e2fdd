import type { PgMetaTable } from '@stratum/contracts'

export interface Suggestion {
  label: string
  prompt: string
}

const GENERAL: Suggestion[] = [
  { label: 'Create a table', prompt: 'Create a table for blog posts with a title, a body, an author and timestamps, with row level security so authors edit only their posts.' },
  { label: 'Explain row level security', prompt: 'Explain row level security in Postgres and show a policy that lets signed-in users read only their own rows.' },
  { label: 'Write an edge function', prompt: 'Write an edge function that returns the current time as JSON.' },
]

/**
 * Starters that fit the project: about its own tables when it has some (the largest first, by
 * column count as a cheap proxy), else general ones for an empty project.
 */
export function suggestionsFor(tables: PgMetaTable[] | undefined): Suggestion[] {
  const mine = (tables ?? []).filter((table) => table.schema === 'public')
  if (mine.length === 0) return GENERAL
  const [first, second] = [...mine].sort((a, b) => (b.columns?.length ?? 0) - (a.columns?.length ?? 0))
  const out: Suggestion[] = [
    { label: `Summarize ${first!.name}`, prompt: `Show me the 10 most recent rows of the ${first!.name} table and explain its columns.` },
    { label: `Policies for ${first!.name}`, prompt: `Suggest row level security policies for the ${first!.name} table.` },
  ]
  if (second) out.push({ label: `Join ${first!.name} and ${second.name}`, prompt: `How are ${first!.name} and ${second.name} related? Write a query that joins them.` })
  else out.push(GENERAL[2]!)
  return out
}
