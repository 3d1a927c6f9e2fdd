import type { LaterSectionKey } from './LaterSection'

export type SectionKey = 'introduction' | 'entities' | 'stored-procedures' | LaterSectionKey

/** The active section, then optionally one item of it (a table or a function). */
export type ActivePage = [SectionKey] | [SectionKey, string]

export interface SectionDef {
  key: SectionKey
  label: string
}
